"""Shared fixtures: an isolated TATLOCK_HOME per test, the CLI in-process and as a process,
and the fake Ollama server over real loopback HTTP."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

_SCRUB = ("TATLOCK_", "OLLAMA_")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Every test gets an empty TATLOCK_HOME and none of the developer's settings."""
    for key in list(os.environ):
        if key.startswith(_SCRUB):
            monkeypatch.delenv(key)
    h = tmp_path / "home"
    # as tatlock makes its own folders (a looser one is tightened with a notice)
    h.mkdir(mode=0o700)
    monkeypatch.setenv("TATLOCK_HOME", str(h))
    monkeypatch.setenv("TATLOCK_USER", "tester")
    monkeypatch.setenv("TATLOCK_TIER", "low")  # deterministic defaults whatever the machine
    # the scripted fake server answers the assessment's JSON in one call: the low tier's default
    # (the plain form: a routing call, then the answer) is tested where a test asks for it
    monkeypatch.setenv("TATLOCK_ANSWER_FORM", "json")
    # no summaries by themselves (no model calls beside the ones a test scripts, no detached
    # process outliving its test); tests of the housekeeping choose their mode (a detached
    # housekeeper one of them starts is ended when the test ends)
    monkeypatch.setenv("TATLOCK_HOUSEKEEPING", "off")
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    yield h
    _end_housekeepers(h)


def _end_housekeepers(home: Path) -> None:
    """A detached housekeeper a test started (a test in the background mode) ends with its test:
    it must not go on talking to a fake server whose port another test may have by now."""
    import signal
    import time

    from tatlock.memory.locks import PID_NAME

    for path in home.glob(f"users/*/{PID_NAME}"):
        try:
            pid = int(path.read_text().strip())
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if b"tatlock.memory.detached" not in fh.read():
                    continue  # it has ended, and its pid is someone else's now
            os.kill(pid, signal.SIGTERM)  # it lets go of its claim; what is left waits, safely
        except (OSError, ValueError):
            continue
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except OSError:
                break
            time.sleep(0.05)


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys, monkeypatch):
    """Run `tatlock ARGS` in-process; returns exit code, stdout and stderr."""
    from tatlock.cli import main

    def run(*args: str, stdin: str | None = None, tty: bool = False) -> Result:
        capsys.readouterr()
        fake_in = io.StringIO(stdin or "")
        fake_in.isatty = lambda: tty  # type: ignore[method-assign]
        monkeypatch.setattr(sys, "stdin", fake_in)
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse exits
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


@pytest.fixture
def tatlock_proc(home):
    """Run the installed `tatlock` console script as a real process."""
    exe = Path(sys.executable).parent / "tatlock"

    def run(
        *args: str, stdin: str | None = None, env: dict[str, str] | None = None, timeout: float = 60
    ) -> Result:
        full_env = {**os.environ, **(env or {})}
        p = subprocess.run(
            [str(exe), *args],
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            env=full_env,
            timeout=timeout,
        )
        return Result(p.returncode, p.stdout, p.stderr)

    return run


@pytest.fixture
def paths():
    from tatlock.config import load

    return load().paths


@pytest.fixture
def store(paths):
    """alice's memory, a real SQLite file in this test's TATLOCK_HOME."""
    from tatlock.store.user import UserStore

    s = UserStore.open(paths, "alice")
    yield s
    s.close()


@pytest.fixture
def fake():
    from support.fake_ollama import FakeOllama

    with FakeOllama() as srv:
        yield srv


@pytest.fixture
def served(fake, monkeypatch):
    """The fake server wired in as the configured Ollama host, with the tier's model present."""
    monkeypatch.setenv("OLLAMA_HOST", fake.url)
    monkeypatch.setenv("TATLOCK_MODEL", "llama3.2:3b")
    monkeypatch.setenv("TATLOCK_TIMEOUT", "15")
    return fake


# -- a fake Open-Meteo + web-search server (loopback), shared by tool and pipeline tests


@pytest.fixture
def fake_server():
    from support.fake_web import FakeWeb

    with FakeWeb() as web:
        yield web


@pytest.fixture
def closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture
def weather_env(fake_server, monkeypatch):
    monkeypatch.setenv("TATLOCK_GEOCODING_URL", fake_server.url)
    monkeypatch.setenv("TATLOCK_OPEN_METEO_URL", fake_server.url + "/")
    return fake_server


# Tiers and the fast loop. A test's folder is its tier and its marker (`-m unit`, `-m tui`...);
# the tui, e2e and faults tiers (a whole Textual app per test, processes, tmux, the wheel, faults
# injected) are `slow`, and so are the tests listed in SLOW; `pytest -m "not slow"`
# is the fast loop (its time is in the README). A new test over 0.3 s belongs in SLOW
# (`pytest -m "not slow" --durations=0 --durations-min=0.3` finds them).
TIERS = ("unit", "integration", "tui", "e2e", "faults")
SLOW_TIERS = ("tui", "e2e", "faults")
# unit and integration tests over half a second each, then over 0.3 s among the rest
# (`--durations`, 25 Nov, on the shared machine): a process started, a classifier retrained,
# threads racing, an export or import of a whole memory
SLOW: frozenset[str] = frozenset(
    (
        "test_admin_cli.py::test_console_script_runs_as_a_process",
        "test_admin_cli.py::test_user_add_list_passwd_remove",
        "test_api.py::test_a_call_deadline_is_honoured",
        "test_api.py::test_a_conversation_keeps_the_model_chosen_for_it_and_new_ones_use_the_default",
        "test_api.py::test_a_huge_message_is_cut_for_the_model_but_stored_whole",
        "test_api.py::test_a_tool_that_times_out_cannot_write_after_its_turn",
        "test_api.py::test_a_turn_starts_at_once_and_streams_while_generated",
        "test_api.py::test_async_iteration_does_not_block_the_loop",
        "test_api.py::test_cancel_closes_the_stream_keeps_the_partial_answer_and_the_next_turn_works",
        "test_api.py::test_store_is_used_from_several_threads_during_a_turn",
        "test_backends.py::test_ollama_backend_context_length_models_and_timeout",
        "test_bounds.py::test_a_model_that_asks_for_a_key_gets_a_refusal",
        "test_bounds.py::test_another_name_for_one_of_tatlocks_own_files_is_refused",
        "test_compaction.py::test_a_cancelled_compaction_pauses_and_leaves_the_block_for_later",
        "test_compaction.py::test_a_timed_out_summary_is_extracted_without_a_repair",
        "test_compaction.py::test_compactor_runs_in_the_background_with_its_own_connection",
        "test_compaction.py::test_kill_9_mid_compaction_repeatedly_never_leaves_a_partial_compact_gap_or_overlap",
        "test_compaction.py::test_two_processes_and_this_one_racing_never_compact_one_range_twice",
        "test_compose.py::test_a_report_in_hand_answers_without_a_call_to_choose_arguments",
        "test_doctor_setup_chat.py::test_ask_run_does_not_import_textual_or_prompt_toolkit",
        "test_rulebook.py::test_every_rule_reads_a_long_message_in_linear_time",
        "test_routes.py::test_the_shipped_model_is_not_stale_against_its_data",
        "test_doctor_setup_chat.py::test_chat_as_a_process_reads_stdin",
        "test_doctor_setup_chat.py::test_commands_do_not_import_textual",
        "test_export_files.py::test_an_export_never_replaces_one_of_tatlocks_own_files",
        "test_export_files.py::test_on_a_full_disk_the_export_is_one_line_and_the_old_file_stays",
        "test_export_import.py::test_a_diverged_copy_is_refused_and_nothing_is_written",
        "test_export_import.py::test_a_newer_export_continues_a_conversation",
        "test_export_import.py::test_a_single_conversation_export_imports_too",
        "test_export_import.py::test_export_all_json_holds_everything",
        "test_export_import.py::test_export_import_import_again_adds_nothing",
        "test_export_import.py::test_import_into_a_home_with_its_own_conversations_remaps_ids",
        "test_export_import.py::test_round_trip_into_a_fresh_home_gives_identical_searches",
        "test_facts.py::test_a_corrected_fact_supersedes_the_old_one_in_the_next_conversation",
        "test_facts.py::test_a_guests_statement_is_theirs_and_a_secret_is_not_kept",
        "test_facts.py::test_facts_are_listed_edited_and_forgotten_from_the_cli",
        "test_facts.py::test_the_memory_pane_shows_what_was_kept_and_from_whom",
        "test_facts.py::test_who_she_is_comes_from_the_same_persons_message_before",
        "test_fake_ollama.py::test_chunks_arrive_incrementally",
        "test_fake_ollama.py::test_concurrent_chats_each_get_one_reply",
        "test_fake_ollama.py::test_delay_before_first_byte_and_timeout",
        "test_fake_ollama.py::test_request_recorded_before_reply",
        "test_fake_ollama.py::test_v1_api_key_enforced",
        "test_fake_ollama.py::test_v1_sse_without_usage_and_incremental",
        "test_gate_pipeline.py::test_a_mixed_question_answered_in_neither_part_is_withdrawn",
        "test_gate_pipeline.py::test_a_short_direct_answer_is_shown_whole_before_the_json_ends",
        "test_gate_pipeline.py::test_a_sure_weather_need_runs_the_tool_even_when_the_model_answers_directly",
        "test_gate_pipeline.py::test_a_sure_weather_need_runs_the_tool_when_the_model_claims_a_guard",
        "test_gate_pipeline.py::test_an_answer_cut_at_its_length_limit_says_so",
        "test_gate_pipeline.py::test_on_a_terminal_a_withdrawn_answer_is_replaced_in_place",
        "test_gate_pipeline.py::test_piped_ask_never_captures_a_withdrawn_answer",
        "test_gate_stream.py::test_no_good_answer_in_the_gate_cases_is_rejected",
        "test_gate_tool_shapes.py::test_every_path_the_gate_reads_is_in_the_tools_real_output",
        "test_gate_tool_shapes.py::test_the_gates_canned_tool_results_have_the_real_tools_keys",
        "test_housekeeping.py::test_a_block_that_made_way_twice_is_extracted_so_no_answer_waits_and_it_is_still_done",
        "test_housekeeping.py::test_a_detached_housekeeper_does_the_work_and_ends",
        "test_housekeeping.py::test_a_detached_housekeeper_ends_at_its_lifetime_even_mid_call",
        "test_housekeeping.py::test_a_detached_housekeeper_fits_its_requests_to_a_server_with_a_smaller_window",
        "test_housekeeping.py::test_a_model_that_cannot_write_summaries_is_not_asked_every_time",
        "test_housekeeping.py::test_a_turn_during_a_summary_is_not_held_up_and_the_summary_resumes_after_it",
        "test_housekeeping.py::test_closing_hands_what_is_left_to_a_detached_housekeeper_and_says_so_once",
        "test_housekeeping.py::test_the_briefing_waits_until_the_conversation_is_quiet",
        "test_mcp.py::test_a_failed_summary_is_an_error_and_writes_nothing",
        "test_mcp.py::test_a_room_logged_through_add_turn_is_compacted_in_the_background",
        "test_mcp.py::test_a_summary_the_model_cannot_write_is_made_without_it",
        "test_mcp.py::test_ask_runs_off_the_loop_and_a_cancelled_request_stops_the_model",
        "test_mcp.py::test_ask_with_the_model_server_down_is_one_sentence",
        "test_mcp.py::test_bad_arguments_are_one_sentence_errors_and_the_server_keeps_serving",
        "test_mcp.py::test_done_when_a_matrix_room_over_stdio",
        "test_mcp.py::test_http_transport_on_loopback_only",
        "test_mcp.py::test_other_commands_do_not_import_the_mcp_sdk",
        "test_mcp.py::test_search_recall_get_and_recent",
        "test_mcp.py::test_summarize_forces_compaction_of_a_short_conversation",
        "test_mcp.py::test_the_server_serves_one_user_only",
        "test_mcp_fit.py::test_many_long_conversations_are_listed_as_far_as_they_fit",
        "test_mcp_fit.py::test_the_worst_a_memory_can_hold_still_fits_every_response",
        "test_memory_cli.py::test_compact_blocks_of_the_interval",
        "test_memory_cli.py::test_compact_with_the_model_failing_is_one_line",
        "test_memory_cli.py::test_forget_removes_everything_derived",
        "test_memory_cli.py::test_recall_bad_date_is_usage_error",
        "test_memory_cli.py::test_search_fts_syntax_does_not_crash",
        "test_memory_cli.py::test_user_option_selects_another_memory",
        "test_memory_pipeline.py::test_a_new_conversation_starts_at_once_with_the_briefing_prepared_when_the_last_went_quiet",
        "test_memory_pipeline.py::test_ask_in_the_foreground_mode_finishes_compaction_before_it_exits",
        "test_memory_pipeline.py::test_fact_from_message_1_reaches_the_prompt_at_message_130",
        "test_memory_pipeline.py::test_multi_party_attribution_and_prompt_format",
        "test_memory_pipeline.py::test_prompt_stays_bounded_as_the_conversation_grows",
        "test_pipeline.py::test_a_new_conversation_makes_no_summary_call_before_its_answer",
        "test_pipeline.py::test_ask_system_adds_a_one_off_instruction_after_the_persona",
        "test_pipeline.py::test_conversations_continue_and_new_starts_fresh",
        "test_privacy.py::test_ordinary_use_leaves_nothing_readable_by_others",
        "test_recall_vectors.py::test_a_one_shot_process_does_not_wait_on_a_hanging_embedding_server",
        "test_recall_vectors.py::test_setup_pulls_the_embedding_model_beside_the_chat_model_and_doctor_says_so",
        "test_recall_vectors.py::test_setup_says_when_the_embedding_model_cannot_be_pulled_and_goes_on",
        "test_rooms.py::test_concurrent_exchanges_keep_each_reply_right_after_its_query",
        "test_routes.py::test_a_changed_example_makes_the_model_stale",
        "test_routes.py::test_a_long_message_is_routed_by_its_ends",
        "test_routes.py::test_the_gates_never_change_a_decision",
        "test_secrets.py::test_secret_help_does_not_import_keyring",
        "test_secrets.py::test_set_get_delete_through_the_cli",
        "test_settings.py::test_a_bad_setting_stops_ask_before_anything_is_stored",
        "test_store.py::test_every_old_user_version_migrates_and_keeps_rows",
    )
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        tier = item.path.parent.name
        if tier in TIERS:
            item.add_marker(getattr(pytest.mark, tier))
        name = f"{item.path.name}::{item.originalname}" if isinstance(item, pytest.Function) else ""
        if tier in SLOW_TIERS or name in SLOW or item.path.name in SLOW:
            item.add_marker(pytest.mark.slow)
