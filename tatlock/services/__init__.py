"""The named services of the core (``butler.conversations``, ``butler.persona``, ...): every
operation an interface offers, each owning its transactions, none with interface wording."""
