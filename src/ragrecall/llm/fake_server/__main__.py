"""``python -m ragrecall.llm.fake_server``: the server in its own process."""

from __future__ import annotations

import argparse

from ._server import FakeOpenAIServer


def main(argv: list[str] | None = None) -> None:
    """Command line: serve until interrupted."""
    parser = argparse.ArgumentParser(
        prog="python -m ragrecall.llm.fake_server", description="OpenAI-compatible fake server on 127.0.0.1"
    )
    parser.add_argument("--port", type=int, default=8765, help="port to bind (0: any free port)")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="delay added before every answer")
    args = parser.parse_args(argv)
    server = FakeOpenAIServer(latency=args.latency_ms / 1000.0, port=args.port)
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
