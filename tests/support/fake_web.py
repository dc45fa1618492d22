"""A loopback stand-in for Open-Meteo (geocoding + forecast) and the web-search test hook,
shared by the tests and the benchmarks. Knows one place, London; records every request.

    with FakeWeb() as web:
        os.environ["TATLOCK_GEOCODING_URL"] = os.environ["TATLOCK_OPEN_METEO_URL"] = web.url
        os.environ["TATLOCK_WEB_SEARCH_URL"] = web.url + "/search"
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

GEO_LONDON = {
    "results": [
        {
            "name": "London",
            "admin1": "England",
            "country": "United Kingdom",
            "latitude": 51.50853,
            "longitude": -0.12574,
            "timezone": "Europe/London",
        }
    ]
}


def forecast(days: int) -> dict[str, Any]:
    dates = [f"2026-11-{21 + i}" for i in range(days)]
    return {
        "timezone": "Europe/London",
        "current": {
            "time": "2026-11-21T14:00",
            "temperature_2m": 9.5,
            "weather_code": 3,
            "wind_speed_10m": 14.2,
        },
        "daily": {
            "time": dates,
            "temperature_2m_max": [10.1 + i for i in range(days)],
            "temperature_2m_min": [4.0] * days,
            "precipitation_sum": [1.2] * days,
            "precipitation_probability_max": [60] * days,
            "weathercode": [61] + [0] * (days - 1),
            "wind_speed_10m_max": [20.0] * days,
        },
    }


class FakeWeb:
    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, list[str]]]] = []
        self._server: ThreadingHTTPServer | None = None
        self.url = ""

    def _answer(self, path: str, q: dict[str, list[str]]) -> Any:
        if path == "/v1/search":
            return (
                GEO_LONDON
                if q.get("name", [""])[0].lower() == "london"
                else {"generationtime_ms": 0.1}
            )
        if path == "/v1/forecast":
            return forecast(int(q.get("forecast_days", ["3"])[0]))
        if path == "/search":
            return {
                "results": [
                    {
                        "title": f"Result {i}",
                        "url": f"https://example.org/{i}",
                        "snippet": f"about {q.get('q', [''])[0]}",
                    }
                    for i in range(8)
                ]
            }
        return None

    def start(self) -> FakeWeb:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:
                url = urlparse(self.path)
                q = parse_qs(url.query)
                fake.requests.append((url.path, q))
                body = fake._answer(url.path, q)
                if body is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                import sys

                if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
                    super().handle_error(request, client_address)

        self._server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeWeb:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
