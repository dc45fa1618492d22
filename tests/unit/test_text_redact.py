"""Terminal-inert text (escapes shown, never executed) and the redaction patterns."""

from __future__ import annotations

import pytest

from tatlock.redact import redact, scrub
from tatlock.text import inert, inert_line


@pytest.mark.parametrize(
    "raw,shown",
    [
        ("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),  # clear screen, cursor home
        ("\x1b]52;c;aGVsbG8=\x07", "\\x1b]52;c;aGVsbG8=\\x07"),  # OSC 52: write the clipboard
        (
            "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\",
            "\\x1b]8;;http://evil\\x1b\\click\\x1b]8;;\\x1b\\",
        ),
        ("a\x00b", "a\\x00b"),
        ("done\rERASED", "done\\rERASED"),  # a bare CR would overwrite the line
        ("\x9b31m", "\\x9b31m"),  # the 8-bit CSI
        ("\x7f\x08", "\\x7f\\x08"),
        ("abc\u202edcba", "abc\\u202edcba"),  # right-to-left override
        ("x\ud800y", "x\\ud800y"),  # a lone surrogate would make print() raise
        ("\x0b\x0c", "\\v\\f"),
    ],
)
def test_inert_shows_what_a_terminal_would_obey(raw, shown):
    assert inert(raw) == shown
    assert "\x1b" not in inert(raw) and "\x00" not in inert(raw)
    inert(raw).encode("utf-8")  # printable on any UTF-8 terminal


def test_inert_keeps_ordinary_text():
    text = "Line one\n\tindented — café, 日本語, emoji 🙂\r\nwindows line\n"
    assert inert(text) is text  # nothing to change: the same object, no copy


def test_inert_line_shows_newlines_too():
    assert inert_line("title\nsecond\tpart\x1b[31m") == "title\\nsecond\\tpart\\x1b[31m"


def test_inert_on_a_long_text_changes_only_the_unsafe_characters():
    text = ("ordinary words " * 50_000) + "\x1b[31m" + ("more " * 50_000)
    out = inert(text)
    assert len(out) == len(text) + 3 and out.count("\\x1b") == 1


@pytest.mark.parametrize(
    "text,gone",
    [
        (
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----",
            "MIIEowIBAAKCAQEA7",
        ),
        (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA (cut off",
            "b3BlbnNzaC1rZXktdjEAAAA",
        ),
        (
            "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----",
            "lQOYBF",
        ),
        ("key AKIAIOSFODNN7EXAMPLE here", "IOSFODNN7EXAMPLE"),
        ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI"),
        ("token ghp_" + "a1B2c3D4e5" * 4, "a1B2c3D4e5"),
        ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "11ABCDEFG0123456789"),
        ("slack xoxb-123456789012-abcdefABCDEF", "123456789012-abcdef"),
        ("https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX", "T000/B000"),
        ("OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234", "abcdefghijklmnop1234"),
        ("stripe sk_live_abcdefghijklmnop1234", "abcdefghijklmnop1234"),
        ("google AIzaSyA-abcdefghijklmnopqrstuvwxyz12345", "abcdefghijklmnopqrstuvwxyz12345"),
        (
            "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
            "dozjgNryP4J3jVmNHl0w5N",
        ),
        (
            "root:$6$saltsalt$Xq1Yk2tTFb3EoX9mVtQoLrL0V2s0R9dPp5y9v0uJvQ6.:19000:0:99999:7:::",
            "Xq1Yk2tTFb3EoX9mVtQo",
        ),
        (
            "alice:$y$j9T$abcdefghijkl$mnopqrstuvwxyz0123456789ABCDEFG:19000::::::",
            "mnopqrstuvwxyz0123",
        ),
        ("scrypt$32768$8$1$c2FsdHNhbHQ=$ZGlnZXN0ZGlnZXN0", "ZGlnZXN0ZGlnZXN0"),
        ("password=hunter22", "hunter22"),
        ('{"api_key": "abcd1234efgh"}', "abcd1234efgh"),
        ("my password is Tr0ub4dor", "Tr0ub4dor"),
        ("Authorization: Bearer abcdefghijklmnop1234", "abcdefghijklmnop1234"),
        ("postgres://admin:s3cretpass@db.example.org/x", "s3cretpass"),
    ],
)
def test_secret_shapes_are_withheld(text, gone):
    out = redact(text)
    assert gone not in out and "REDACTED" in out


@pytest.mark.parametrize(
    "text",
    [
        "The secret is out: the party is on Friday.",
        "prompt_tokens: 1234, eval_tokens: 56",
        "It costs $100, or $5 off with the coupon.",
        "The password policy asks for twelve characters.",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMq user@host",  # a public key is not a secret
        "the task-abcdefghijklmnopqrstu job and the disk-0123456789abcdefgh",  # "sk-" inside a word
        "see https://example.org/a:b/c and mailto:someone@example.org, at 12:30 = noon",
        "Tokenizer: sentencepiece. Passage: chapter one.",
    ],
)
def test_ordinary_text_is_left_alone(text):
    assert redact(text) == text


def test_scrub_walks_values_and_withholds_secret_keys():
    value = {
        "password": "anything",
        "max_tokens": 5,
        "items": [("sk-abcdefghijklmnopqrstuv",)],
        "note": "fine",
    }
    assert scrub(value) == {
        "password": "[REDACTED]",
        "max_tokens": 5,
        "items": [("sk-[REDACTED]",)],
        "note": "fine",
    }
    assert redact("my key plain-value-xyz", ("plain-value-xyz",)) == "my key [REDACTED]"
