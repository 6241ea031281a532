"""Scale-out: two replicas behind a real nginx (Debian's) on 127.0.0.1. Both serve and give the
same bytes; when one is stopped, nginx's retries keep every request answered."""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from harness import Server, free_port, make_root, nginx_head


def fetch(url):
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.status, response.read()


def main():
    root = make_root()
    work = tempfile.mkdtemp(prefix="blurkit-nginx-")
    first, second = Server(root), Server(root)
    port = free_port()
    config = os.path.join(work, "nginx.conf")
    with open(config, "w") as f:
        f.write(f"""
{nginx_head(work)}
    upstream blurkit {{
        server 127.0.0.1:{first.port} max_fails=1 fail_timeout=30s;
        server 127.0.0.1:{second.port} max_fails=1 fail_timeout=30s;
        keepalive 8;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://blurkit;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_next_upstream error timeout http_503;
        }}
    }}
}}
""")
    nginx = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-c", config, "-p", work], stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        target = "/blur/photo.png?sigma=6&format=jpeg"
        direct = [fetch(server.url + target)[1] for server in (first, second)]
        assert direct[0] == direct[1], "the replicas disagree"
        through = [fetch(f"http://127.0.0.1:{port}{target}") for _ in range(20)]
        assert all(status == 200 and body == direct[0] for status, body in through), "nginx answered otherwise"
        served = [server.get("/metrics")[2].decode() for server in (first, second)]
        for metrics in served:
            assert 'blurkit_requests_total{route="blur",status="200"}' in metrics, "a replica served nothing"

        assert first.stop() == 0
        after = [fetch(f"http://127.0.0.1:{port}{target}") for _ in range(20)]
        assert all(status == 200 and body == direct[0] for status, body in after), "a request was lost after a replica stopped"
        assert second.stop() == 0
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
        for server in (first, second):
            if server.process.poll() is None:
                server.stop()
    print("nginx: two replicas, identical bytes, every request answered with one of them stopped")


if __name__ == "__main__":
    sys.exit(main())
