"""``python -m ragrecall.llm.fake_server``: the server in its own process."""

from __future__ import annotations

import argparse

from ._responders import hanging_responder
from ._server import FakeOpenAIServer


def main(argv: list[str] | None = None) -> None:
    """Command line: serve until interrupted."""
    parser = argparse.ArgumentParser(
        prog="python -m ragrecall.llm.fake_server", description="OpenAI-compatible fake server on 127.0.0.1"
    )
    parser.add_argument("--port", type=int, default=8765, help="port to bind (0: any free port)")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="delay added before every answer")
    parser.add_argument(
        "--hang-after", type=int, default=None, metavar="N", help="answer N requests, then hang on every later one"
    )
    args = parser.parse_args(argv)
    responder = hanging_responder(args.hang_after) if args.hang_after is not None else None
    server = FakeOpenAIServer(responder, latency=args.latency_ms / 1000.0, port=args.port)
    print(f"serving {server.base_url}", flush=True)
    try:
        server._httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._stopping.set()
        server._httpd.server_close()


if __name__ == "__main__":
    main()
