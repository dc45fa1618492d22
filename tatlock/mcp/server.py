"""The MCP server: one user's conversations as resources and tools, over the core API only.

Resources (JSON): ``conversations://list``, ``conversations://recent``, and the templates
``conversations://get/{id}``, ``conversations://search/{query}``, ``conversations://room/{roomId}``.
Tools: ``create_conversation``, ``add_turn``, ``summarize_conversation``,
``get_conversation_history``, ``read_message``, ``search_conversations``, ``ask`` and ``recall``.
Every response fits in one message a client accepts (tatlock/mcp/fit.py): long histories come
in pages, long messages cut with a note naming the call that reads the rest.

Every call goes through the butler opened for the one user this server serves: no argument
can name another user's database. Bad arguments and core errors become MCP errors carrying
one sentence (a tool result with ``isError``, or a protocol error for a resource); a bug is
logged on stderr and the server keeps serving. Blocking work (SQLite, model calls) runs on
worker threads; ``ask`` follows its turn by async iteration, so the event loop stays free.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError
from mcp_types import ToolAnnotations
from pydantic import Field, ValidationError

from tatlock import __version__
from tatlock.errors import NotFound, TatlockError
from tatlock.mcp import fit, pages, shapes
from tatlock.services.rooms import (
    MAX_INTERFACE_CHARS,
    MAX_NAME_CHARS,
    MAX_ROOM_CHARS,
    MAX_TEXT_CHARS,
)

if TYPE_CHECKING:  # pragma: no cover
    from tatlock.butler import Butler

log = logging.getLogger(__name__)

LIST_LIMIT = 1000  # conversations in conversations://list (most recent first)
RECENT = 10  # conversations in conversations://recent, each with its latest RECENT_MESSAGES
RECENT_MESSAGES = 6
# latest messages in conversations://get/{id} (fewer when they are long)
GET_MESSAGES = pages.GET_MESSAGES
MAX_HITS = 50

INSTRUCTIONS = """\
Tatlock is a personal butler with long-term memory. This server holds one user's conversations.
Rooms: call create_conversation(interfaceType, roomId) for a room (for example a Matrix room id) to get its
conversation id (the same room and interface always give the same id), then add_turn to record what was said
there, naming the speaker with userId/userName (the Anchor is the butler's owner; others are guests; set isBot
for bots). ask runs a full butler turn and returns the answer. search_conversations and recall search the memory.
Resources: conversations://list, conversations://recent, conversations://get/{id}, conversations://room/{roomId},
conversations://search/{query} (JSON). Long histories come in pages (get_conversation_history with before); a long
message in a listing is cut, with a note naming the read_message call that reads the rest."""

ConversationId = Annotated[
    int,
    Field(
        title="Conversation id",
        description="A conversation id (from create_conversation or conversations://list)",
        ge=1,
    ),
]
UserId = Annotated[
    str | None,
    Field(
        title="Speaker id",
        max_length=MAX_ROOM_CHARS,
        description="The speaker's id, e.g. @maria:example.org. The configured anchor id means the "
        "Anchor (the butler's "
        "owner); any other id is a guest. Omit both userId and userName for the Anchor.",
    ),
]
UserName = Annotated[
    str | None,
    Field(
        title="Speaker name",
        description="The speaker's display name, e.g. Maria",
        max_length=MAX_NAME_CHARS,
    ),
]
IsBot = Annotated[bool, Field(title="Bot", description="True when the speaker is a bot")]
Query = Annotated[
    str, Field(title="Query", description="Words to look for", min_length=1, max_length=2000)
]
Limit = Annotated[
    int,
    Field(title="Limit", description=f"At most this many hits (1-{MAX_HITS})", ge=1, le=MAX_HITS),
]
When = Annotated[
    str | None,
    Field(
        title="Date",
        description="A date or a phrase: 2026-03-01, yesterday, last week, in March",
        max_length=100,
    ),
]


class Refused(Exception):
    """A tool call the server turns down, with the sentence the client sees."""


class Server(MCPServer):
    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        # the SDK's own messages are pydantic's multi-line reports or carry a prefix: one sentence
        # instead
        # names only: the texts are private
        log.info("tool %s(%s)", name, ", ".join(sorted(arguments or {})))
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(_invalid(name, cause)) from None
            if isinstance(cause, Refused):
                raise ToolError(str(cause)) from None
            raise
        dump = getattr(result, "model_dump_json", None)
        # the last guard: never send what a client cannot take (see tatlock.mcp.fit)
        if dump is not None:
            size = len(dump(by_alias=True, exclude_none=True).encode("utf-8", "surrogatepass"))
            if size > fit.SEND_LIMIT:
                log.warning("tool %s: a response of %d bytes was refused", name, size)
                raise ToolError(fit.too_large(size))
        return result

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        log.info("read %s", uri)
        contents = await super().read_resource(uri, context)
        if isinstance(contents, list):
            size = sum(
                fit.sent_size(c.content)
                for c in contents
                if isinstance(getattr(c, "content", None), str)
            )
            if size > fit.SEND_LIMIT:
                log.warning("resource %s: a response of %d bytes was refused", uri, size)
                raise ResourceError(fit.too_large(size))
        return contents


def _invalid(tool: str, exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ()) if p != "") or "arguments"
    if err.get("type") == "missing":
        return f"{tool} needs the argument {where!r}."
    if err.get("type") == "extra_forbidden":
        return f"{tool} has no argument {where!r}."
    return f"{tool}: {where}: {err.get('msg', 'is not valid')}."


def _sentence(exc: TatlockError, *, resource: bool = False) -> str:
    hint = exc.hint
    if isinstance(exc, NotFound) and exc.kind == "conversation" and not hint:
        hint = "see conversations://list"
    text = exc.message
    return f"{text} ({hint})" if hint else text


def _tool(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Core errors become one-sentence tool errors; a locked or broken database too."""

    if _is_async(fn):

        @functools.wraps(fn)
        async def run_async(*args: Any, **kw: Any) -> Any:
            try:
                return await fn(*args, **kw)
            except TatlockError as exc:
                raise Refused(_sentence(exc)) from None
            except sqlite3.DatabaseError as exc:
                raise Refused(f"database error: {exc}") from None

        run_async.__doc__ = _one_line(fn.__doc__)
        return run_async

    @functools.wraps(fn)
    def run(*args: Any, **kw: Any) -> Any:
        try:
            return fn(*args, **kw)
        except TatlockError as exc:
            raise Refused(_sentence(exc)) from None
        except sqlite3.DatabaseError as exc:
            raise Refused(f"database error: {exc}") from None

    run.__doc__ = _one_line(fn.__doc__)
    return run


def _one_line(doc: str | None) -> str:
    return " ".join((doc or "").split())


def _resource(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def run(*args: Any, **kw: Any) -> Any:
        try:
            return fn(*args, **kw)
        except NotFound as exc:
            raise ResourceNotFoundError(_sentence(exc, resource=True)) from None
        except TatlockError as exc:
            raise ResourceError(_sentence(exc, resource=True)) from None
        except sqlite3.DatabaseError as exc:
            raise ResourceError(f"database error: {exc}") from None

    return run


def _is_async(fn: Callable[..., Any]) -> bool:
    import inspect

    return inspect.iscoroutinefunction(fn)


def build(butler: Butler) -> Server:
    """The server for ``butler``'s user."""
    server = Server(
        "tatlock",
        title=f"Tatlock ({butler.username})",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )
    _add_resources(server, butler)
    _add_conversation_tools(server, butler)
    _add_reading_tools(server, butler)
    _add_ask(server, butler)
    return server


# read-only tools do not change the memory, nor reach outside it
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def _add_resources(server: Server, butler: Butler) -> None:
    """conversations://...: the list, the recent ones, one conversation, a search, a room."""
    conversations = butler.conversations

    @server.resource(
        "conversations://list",
        name="conversations",
        title="All conversations",
        description=f"Every conversation (the {LIST_LIMIT} most recently active): id, "
        f"title, room, "
        "interface, message count, last activity.",
        mime_type="application/json",
    )
    @_resource
    def list_conversations() -> str:
        convs = conversations.list(LIST_LIMIT)
        listed, left = fit.first(convs, shapes.conversation)
        return shapes.dumps(
            {"conversations": listed, "truncated": len(convs) == LIST_LIMIT or left > 0}
        )

    @server.resource(
        "conversations://recent",
        name="recent",
        title="Recent conversations",
        description=f"The {RECENT} most recently active conversations, each with its "
        f"latest "
        f"{RECENT_MESSAGES} messages and who said them (long ones cut, "
        f"with a note).",
        mime_type="application/json",
    )
    @_resource
    def recent() -> str:
        out = []
        for c in conversations.list(RECENT):
            d = conversations.get(c.id, limit=RECENT_MESSAGES)
            shown, _ = fit.newest(
                reversed(d.messages),
                lambda m: fit.message(m, fit.GLANCE_CHARS),
                fit.BUDGET // RECENT,
            )
            out.append({**shapes.conversation(c), "messages": shown})
        return shapes.dumps({"conversations": out})

    @server.resource(
        "conversations://get/{id}",
        name="conversation",
        title="One conversation",
        description=f"A conversation: metadata, participants, topics, summaries "
        f"(compacts, archive) "
        f"and its latest {GET_MESSAGES} messages with attribution (fewer "
        f"when they are "
        "long: 'next' names the call for the earlier ones; a long message "
        "is cut, with a "
        "note naming the read_message call for the rest).",
        mime_type="application/json",
    )
    @_resource
    def get_conversation(id: str) -> str:
        return shapes.dumps(pages.conversation(butler, _int_id(id)))

    @server.resource(
        "conversations://search/{query}",
        name="search",
        title="Search conversations",
        description="Full-text search over messages and summaries (the 10 best hits, "
        "with snippets "
        "and message ids).",
        mime_type="application/json",
    )
    @_resource
    def search_resource(query: str) -> str:
        return shapes.dumps(
            {"query": query, "hits": [shapes.hit(h) for h in conversations.search(query, limit=10)]}
        )

    @server.resource(
        "conversations://room/{roomId}",
        name="room",
        title="A room's conversations",
        description="The conversations of a room (any interface), most recent first. "
        "Percent-encode the room id.",
        mime_type="application/json",
    )
    @_resource
    def room(roomId: str) -> str:
        listed, left = fit.first(conversations.in_room(roomId), shapes.conversation)
        return shapes.dumps({"roomId": roomId, "conversations": listed, "truncated": left > 0})


def _add_conversation_tools(server: Server, butler: Butler) -> None:
    """Tools that write: a room's conversation, a turn said in it, its summary now."""
    conversations, rooms = butler.conversations, butler.rooms

    @server.tool(
        title="Create (or find) a room's conversation",
        annotations=ToolAnnotations(
            idempotent_hint=True, destructive_hint=False, open_world_hint=False
        ),
    )
    @_tool
    def create_conversation(
        interfaceType: Annotated[
            str,
            Field(
                title="Interface",
                min_length=1,
                max_length=MAX_INTERFACE_CHARS,
                description="The interface the room belongs to, e.g. matrix",
            ),
        ],
        roomId: Annotated[
            str,
            Field(
                title="Room id",
                min_length=1,
                max_length=MAX_ROOM_CHARS,
                description="The room, e.g. !kitchen:example.org",
            ),
        ],
    ) -> dict[str, Any]:
        """The conversation of a room on an interface, created on first use. The same room and
        interface
        always give the same conversation id."""
        conv, created = rooms.open(roomId, interfaceType)
        return {
            "conversationId": conv.id,
            "created": created,
            "conversation": shapes.conversation(conv),
        }

    @server.tool(
        title="Record a turn said in a room",
        annotations=ToolAnnotations(
            destructive_hint=False, idempotent_hint=False, open_world_hint=False
        ),
    )
    @_tool
    def add_turn(
        conversationId: ConversationId,
        query: Annotated[
            str,
            Field(
                title="Query",
                min_length=1,
                max_length=MAX_TEXT_CHARS,
                description="What the speaker said",
            ),
        ],
        response: Annotated[
            str | None,
            Field(
                title="Response",
                max_length=MAX_TEXT_CHARS,
                description="The butler's reply to it, if there was one",
            ),
        ] = None,
        userId: UserId = None,
        userName: UserName = None,
        isBot: IsBot = False,
    ) -> dict[str, Any]:
        """Store a message attributed to its speaker (the Anchor when userId is the configured
        anchor id, a guest
        otherwise, bots marked) and, if given, the butler's response to it. No model is called: use
        ask for
        that."""
        author = rooms.author(userId, userName, bot=isBot)
        ex = rooms.add_exchange(conversationId, query, response, author=author)
        # what was stored, cut to a glance: the client has the text already
        return {
            "conversationId": ex.conversation.id,
            "query": fit.message(ex.query, fit.GLANCE_CHARS),
            "response": fit.message(ex.response, fit.GLANCE_CHARS) if ex.response else None,
            "messageCount": ex.conversation.message_count,
        }

    @server.tool(
        title="Summarise a conversation now",
        annotations=ToolAnnotations(
            destructive_hint=False, idempotent_hint=True, open_world_hint=False
        ),
    )
    @_tool
    def summarize_conversation(conversationId: ConversationId) -> dict[str, Any]:
        """Compact the conversation now (calls the model): every message not yet in a summary is
        summarised.
        Returns the new summaries; none when everything was summarised already."""
        done = rooms.summarize(conversationId)
        conv = conversations.get(conversationId, limit=0).conversation
        shown, left = fit.newest(reversed(done), fit.compact)
        return {
            "conversationId": conv.id,
            "compactedUpTo": conv.compacted_up_to,
            "summaries": shown,
            "earlierSummaries": left,
        }


def _add_reading_tools(server: Server, butler: Butler) -> None:
    """Tools that read: a conversation's history, one long message, search and recall."""
    conversations = butler.conversations

    @server.tool(title="Read a conversation's history", annotations=READ_ONLY)
    @_tool
    def get_conversation_history(
        conversationId: ConversationId,
        format: Annotated[
            str,
            Field(
                title="Format",
                description="text (lines such as 'Anchor (Name): ...', 'Maria: ...', '[Name (bot)]: "
                "...'), markdown, "
                "or json",
            ),
        ] = "text",
        limit: Annotated[
            int | None,
            Field(title="Limit", ge=1, description="At most this many of the latest messages"),
        ] = None,
        before: Annotated[
            int | None,
            Field(
                title="Before",
                ge=1,
                description="Only messages numbered below this one (the page before)",
            ),
        ] = None,
    ) -> str:
        """A page of a conversation's messages, each with who said it, the latest last: as many as
        fit in one
        response. A note at the top names the call for the earlier ones; a long message is cut, with
        a note
        naming the read_message call for the rest."""
        return pages.history(butler, conversationId, format=format, limit=limit, before=before)

    @server.tool(title="Read one long message", annotations=READ_ONLY)
    @_tool
    def read_message(
        messageId: Annotated[
            int, Field(title="Message id", ge=1, description="A message id (from a listing)")
        ],
        offset: Annotated[
            int,
            Field(title="Offset", ge=0, description="The character to start at (0: the beginning)"),
        ] = 0,
    ) -> dict[str, Any]:
        """A message's text from offset, as much as fits in one response; nextOffset (and next, the
        call to
        make) says where the rest continues, null at the end."""
        return pages.read_message(butler, messageId, offset)

    @server.tool(title="Search the conversations", annotations=READ_ONLY)
    @_tool
    def search_conversations(query: Query, limit: Limit = 10) -> dict[str, Any]:
        """Full-text search over every conversation's messages and summaries, best first, each hit
        with a
        snippet, its conversation and message id."""
        return {
            "query": query,
            "hits": [shapes.hit(h) for h in conversations.search(query, limit=limit)],
        }

    @server.tool(title="Recall memories by words and time", annotations=READ_ONLY)
    @_tool
    def recall(
        query: Annotated[
            str,
            Field(
                title="Query",
                max_length=2000,
                description="Words to look for (may be empty when since/until are given)",
            ),
        ] = "",
        since: When = None,
        until: When = None,
        limit: Limit = 10,
    ) -> dict[str, Any]:
        """The memory recall the butler's own tools use: messages and summaries matching the words,
        within the
        period from since to until."""
        hits = conversations.recall(query, limit=limit, since=since, until=until)
        return {
            "query": query,
            "since": since,
            "until": until,
            "hits": [shapes.hit(h) for h in hits],
        }


def _add_ask(server: Server, butler: Butler) -> None:
    """The tool that runs a whole butler turn."""
    rooms = butler.rooms

    @server.tool(
        title="Ask the butler",
        annotations=ToolAnnotations(
            destructive_hint=False, idempotent_hint=False, open_world_hint=True
        ),
    )
    @_tool
    async def ask(
        question: Annotated[
            str,
            Field(
                title="Question",
                description="The question or message",
                min_length=1,
                max_length=MAX_TEXT_CHARS,
            ),
        ],
        ctx: Context,
        conversationId: Annotated[
            int | None,
            Field(
                title="Conversation id",
                ge=1,
                description="Continue this conversation (default: the latest of this server's own "
                "room)",
            ),
        ] = None,
        userId: UserId = None,
        userName: UserName = None,
        isBot: IsBot = False,
    ) -> dict[str, Any]:
        """Run a full butler turn (assessment, tools, answer, quality gate, memory) and return the
        answer with
        its route and quality verdict. Both the question and the answer are stored."""
        return await _ask(
            butler, ctx, question, conversationId, rooms.author(userId, userName, bot=isBot)
        )


async def _ask(
    butler: Butler, ctx: Context, question: str, conversation_id: int | None, author: Any
) -> dict[str, Any]:
    from tatlock.events import ErrorEvent, PhaseStarted, TurnCancelled, TurnFinished

    # starting a turn reads the database (and may ask the server its context size): off the loop
    turn = await anyio.to_thread.run_sync(
        functools.partial(butler.turn, question, conversation_id=conversation_id, author=author)
    )
    final = None
    step = 0
    try:
        async for ev in turn:
            if isinstance(ev, PhaseStarted):
                step += 1
                await ctx.report_progress(step, None, ev.phase)
            elif isinstance(ev, (TurnFinished, TurnCancelled, ErrorEvent)):
                final = ev
    finally:
        if not turn.done:  # the client cancelled the request: stop the model too
            turn.cancel()
    if isinstance(final, TurnFinished):
        return {
            "answer": final.answer,
            "route": final.route,
            "guard": final.guard,
            "quality": final.quality,
            "tools": final.tools,
            "topics": final.topics,
            "conversationId": final.conversation_id,
            "messageIds": {"question": final.user_message_id, "answer": final.reply_message_id},
            "ms": round(final.ms),
        }
    if isinstance(final, ErrorEvent):
        raise TatlockError(final.message, hint=final.hint, kind=final.kind)
    raise TatlockError("the turn was cancelled before it answered", kind="cancelled")


def _int_id(value: str) -> int:
    from tatlock.errors import UsageError

    try:
        return int(str(value).strip())
    except ValueError:
        raise UsageError(
            f"{value[:40]!r}{'…' if len(value) > 40 else ''} is not a conversation id"
        ) from None
