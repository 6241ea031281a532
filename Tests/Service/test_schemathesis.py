"""schemathesis against /openapi.json: every response as the document says (status, content type,
headers, JSON schema), no 500 among them (the server's own metrics), and no crash."""

import subprocess
import sys

from harness import Server, make_root


def main():
    root = make_root()
    with Server(root, "--max-concurrent", "4", "--timeout", "5") as server:
        run = subprocess.run(
            [sys.executable, "-m", "schemathesis.cli", "run", server.url + "/openapi.json", "--checks",
             "status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance",
             "--max-time", "60", "--workers", "2", "--suppress-health-check", "all", "--phases", "examples,coverage,fuzzing"],
            capture_output=True, text=True)
        tail = "\n".join(run.stdout.splitlines()[-40:])
        assert run.returncode == 0, "schemathesis found responses the document does not describe:\n" + tail
        status, _, body = server.get("/metrics")
        metrics = body.decode()
        assert status == 200
        served = sum(int(line.rsplit(" ", 1)[1]) for line in metrics.splitlines() if line.startswith("blurkit_requests_total"))
        assert 'status="500"' not in metrics, "a 500 was served:\n" + metrics
        assert server.process.poll() is None, "the server died"
        print(f"schemathesis: {served} requests, every response documented, no 500")


if __name__ == "__main__":
    sys.exit(main())
