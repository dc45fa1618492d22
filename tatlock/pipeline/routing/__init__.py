"""The routing engine: what a message needs (a guard, a tool) beside the model's assessment.

``guards.decide`` (the rules of ``guard_rules`` and ``needs``, read through ``wording``, and the
``classifier`` trained offline), ``authority`` (how a turn reconciles it with the model). Nothing
is imported here, so importing a part costs only that part.
"""
