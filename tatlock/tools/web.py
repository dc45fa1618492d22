"""Web search, for questions about the world the local model cannot know.

Uses DuckDuckGo through the optional ``ddgs`` package (``pip install 'tatlock[search]'``)
because it needs no API key. Without the package the tool says how to install it.

Test hook: if ``TATLOCK_WEB_SEARCH_URL`` is set, the tool instead GETs
``{url}?q=<query>`` and expects ``{"results": [{"title", "url", "snippet"}]}``. This
exists so end-to-end tests can run against a local fake instead of the internet; it is
not meant as a user setting.
"""

from __future__ import annotations

import os
from typing import Any

from tatlock.tools.base import ToolContext

NOT_INSTALLED = "Web search is not installed: pip install 'tatlock[search]'"


def _short(exc: BaseException) -> str:
    """First line of an exception, bounded, so errors stay one clear sentence."""
    text = (str(exc).strip().splitlines() or [""])[0]
    return (text[:150] + "...") if len(text) > 150 else (text or type(exc).__name__)


def _clean(items: Any, limit: int) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        out.append(
            {
                "title": str(item.get("title") or ""),
                "url": str(item.get("url") or item.get("href") or ""),
                "snippet": str(item.get("snippet") or item.get("body") or ""),
            }
        )
        if len(out) >= limit:
            break
    return out


def _search_hook(url: str, query: str, limit: int, timeout: float) -> list[dict[str, str]]:
    import httpx

    resp = httpx.get(url, params={"q": query}, timeout=timeout)
    resp.raise_for_status()
    return _clean(resp.json().get("results"), limit)


def web_search(*, ctx: ToolContext, query: str, max_results: int = 5) -> dict[str, Any]:
    """Search the web and return titles, URLs and snippets (1-10 results)."""
    query = (query or "").strip()
    if not query:
        return {"error": "There is nothing to search for: the query is empty."}
    try:
        limit = max(1, min(10, int(max_results)))
    except (TypeError, ValueError):
        limit = 5

    hook = os.environ.get("TATLOCK_WEB_SEARCH_URL")
    try:
        if hook:
            results = _search_hook(hook, query, limit, ctx.http_timeout)
        else:
            try:
                from ddgs import DDGS
            except ImportError:
                return {"error": NOT_INSTALLED}
            raw = DDGS(timeout=max(1, int(ctx.http_timeout))).text(query, max_results=limit)
            results = _clean(list(raw or []), limit)
    except Exception as exc:  # offline, rate-limited, changed HTML...: all the user's "it failed"
        return {"error": f"The web search failed: {_short(exc)}"}
    return {"query": query, "results": results}
