"""Every operation of the registry under attack, on every front end: the operations and their
parameters are read from `blurkit --describe` (nothing here names one), and each parameter gets the
values its kind and range call for — its bounds, just past them, huge (1e9, 1e300), negative, NaN and
infinity as text, empty, malformed; for regions and sizes huge and far-outside rectangles, alone and
with a px/pt parameter (the scale) at its bounds; the pairs the registry ties together (`goesWith`,
`exclusive`) and every parameter given twice. They are driven through

  (a) the command line: `blurkit OP IN OUT --param=value … --memory-budget 256` (IN an 8×8 and a
      64×48 PNG made here; the 64×48 only gets what the 8×8 neither refused as a usage error, which
      is checked before any file is read, nor took 2 s or more over, an animation's length), two at a
      time;
  (b) HTTP: `GET /OP/in64.png?param=value` and `POST /OP?param=value` with the 8×8 as the body,
      against one `blurkit serve --root R --timeout 2 --memory-budget 512` per operation;
  (c) scene files: a layer with the operation as its backdrop (`{"NAME": {key: value}}`, for the
      operations whose parameters have scene keys), and that layer's frame huge and far outside at
      scale 1, 16 and 0.01, rendered as a still by the command line and by `/render/…json`;
  (d) animations: the backdrop's numbers animated from their minimum to their maximum (all at once,
      and each alone at scale 16), and its frame animated far outside, at scale 1, 16 and 0.01, as
      APNG and WebP (both front ends); and the scene renderer's own parameters (every operation that
      is not an image one: found by probing, below), on an animation and, where refused, a still.

An operation is an image operation when its route renders a POSTed PNG with only the parameters the
registry suggests (`suggested`); one that does not but renders a scene file under the root is a scene
renderer. How the command line takes each (`OP IN OUT` or `OP IN --out DIR`) is probed the same way.

Checked for every attempt: the values the registry itself calls valid (a number's bounds, a choice's
words and aliases — over HTTP those /openapi.json lists for the route —, colour words and hex forms,
flags as documented) are not refused as a usage error (exit 2, 400; a scene's: 422), which keeps this
test honest about the values it makes; no crash (the command line exits 0, 1 or 2, never a signal; HTTP never
500, a 503 only with a body that speaks of load or time, the server alive after every request);
answered, not hung (the command line within 60 s; HTTP within --timeout + 10 s, the client's socket
timeout); peak RSS within the budget plus the process allowance docs/http-api.md sets aside (64 MB)
plus a margin of 32 MB — for the server VmHWM from /proc after each request, for the command line
ru_maxrss of each child from wait4(); every input file unchanged (SHA-256 and inode). A watchdog kills
any child or server past 1.5 GB (an attack that allocates gigabytes would otherwise take the machine
down; it is reported as over budget). Timings are printed, never asserted tightly. Children run with
SWIFT_BACKTRACE=enable=no, so a crash ends at once (it is still a signal).

    BLURKIT=.build/release/blurkit python3 Tests/Service/test_registry_attacks.py [OP …]
    VERBOSE=1 …   prints every attempt with its exit status or HTTP answer, seconds and peak RSS

Each failed check prints one `FAIL` line with the command or URL that reproduces it: commands run
from the work folder the first line names, URLs against `blurkit serve --root WORK/root --timeout 2
--memory-budget 512`; the folder is kept when a check failed. A summary groups the failures. It ends
with `N passed, M failed` and exits 1 when any check failed."""

import concurrent.futures
import hashlib
import http.client
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter, defaultdict

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import BLURKIT, Server  # noqa: E402
from test_attacks import peak_rss  # noqa: E402

MB = 1 << 20
PROCESS_ALLOWANCE = 64  # MB: what `blurkit serve` sets aside for the process itself (docs/http-api.md, Limits)
MARGIN = 32  # MB: ours, for the allocator's slack and the runtime's own mappings
CLI_BUDGET = 256
SERVE_BUDGET = 512
SERVE_TIMEOUT = 2
CLI_LIMIT = (CLI_BUDGET + PROCESS_ALLOWANCE + MARGIN) * MB
SERVE_LIMIT = (SERVE_BUDGET + PROCESS_ALLOWANCE + MARGIN) * MB
HARD_CAP = 1536 * MB  # the watchdog's: far over both limits, far under the machine
CLI_BOUND = 60.0  # seconds: answered, not hung (the command line has no --timeout)
HTTP_BOUND = SERVE_TIMEOUT + 10.0  # seconds: the client's socket timeout
SLOW = 5.0  # seconds: attempts slower than this are printed (not failed)
VERBOSE = os.environ.get("VERBOSE") == "1"  # every attempt with its answer

os.environ["SWIFT_BACKTRACE"] = "enable=no"  # inherited by every child and server

passed = []
failures = []  # (group, message)
slow = []  # (seconds, what)
lock = threading.Lock()


def check(condition, message, group=None):
    """Counts a check; prints a line only when it fails."""
    with lock:
        if condition:
            passed.append(message)
        else:
            print("FAIL " + message, flush=True)
            failures.append((group or message, message))
    return condition


def note(text):
    print("     " + text, flush=True)


# The registry --------------------------------------------------------------------------------------

def registry():
    return json.loads(subprocess.run([BLURKIT, "--describe"], check=True, capture_output=True, text=True).stdout)


def num(x):
    """A number as text: integers without a fraction, others in at most 12 significant digits; a
    value the registry gives as text (a suggested area) as it is."""
    if isinstance(x, str):
        return x
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return "%.12g" % x


def step(p, upward):
    """How far "just past" a number's bound is: 1 for integers, else a thousandth of it (at least 0.001)."""
    if p.get("integer"):
        return 1
    bound = p["maximum"] if upward else p["minimum"]
    return max(abs(bound) * 1e-3, 1e-3)


def unique(values):
    seen, kept = set(), []
    for v in values:
        key = json.dumps(v, sort_keys=True)
        if key not in seen:
            seen.add(key)
            kept.append(v)
    return kept


def sample_words(words):
    """Every word of a short list; of a long one the first two, the middle one and the last two."""
    return words if len(words) <= 10 else words[:2] + [words[len(words) // 2]] + words[-2:]


REGIONS = ["0,0,8,8", "63,47,1,1", "64,48,100,100", "0,0,0,0", "0,0,10000,10000", "0,0,100000,100000",
           "-500000,-500000,1000000,1000000", "0,0,1e9,1e9", "1e300,0,1e300,1e300", "-1e300,-1e300,1e300,1e300",
           "nan,0,1,1", "inf,inf,inf,inf", "0,0,-5,-5", "1,2,3", "1,2,3,4,5", "a,b,c,d", ""]
HEAVY_REGIONS = ["0,0,8,8", "0,0,10000,10000", "0,0,100000,100000", "-500000,-500000,1000000,1000000"]


def texts(p, front):
    """The values to attack parameter `p` with on the command line or over HTTP, as text; None is a
    flag given without a value (`--flag`, or `name` alone in a query)."""
    kind = p["kind"]
    if kind == "number":
        lo, hi = p["minimum"], p["maximum"]
        values = [num(lo), num(hi), num(lo - step(p, False)), num(hi + step(p, True)), "1e9", "1e300", "-1e300", "-1",
                  "nan", "NaN", "inf", "-inf", "Infinity", "1e999", "", "0x10", "-0"]
        if p.get("integer"):
            values.append("1.5")
        return unique(values)
    if kind == "choice":
        words = p["words"]
        return unique(sample_words(words) + list(p.get("aliases") or {})[:2]
                      + [words[0].upper(), "bogus", "", "1e300", "nan", words[0] * 40])
    if kind == "color":
        return unique(p.get("words", [])[:1] + p.get("words", [])[-1:] + list(p.get("aliases") or {})[:1]
                      + ["#FFF", "#FF950080", "ff9500", "#12", "#GGGGGG", "#FFFFFFFFF", "red", "", "nan", "#" + "F" * 1000])
    if kind == "length":
        hi = p.get("maximum", 1e6)
        fmax = (p.get("fractions") or {}).get("maximum", 1)
        return unique([num(p.get("minimum", 0)), num(hi), num(hi + 1), "1e9", "1e300", "-1", "40pt", "1e9pt",
                       "0%", num(fmax * 100) + "%", num(fmax * 100 + 1) + "%", "1e9%", "-5%", "nan%",
                       "none", "nan", "inf", "", "pt", "%"])
    if kind == "size":
        lo, hi = p.get("minimum", 1), p.get("maximum", 10000)
        return unique([f"{num(lo)}x{num(lo)}", f"{num(hi)}x1", f"1x{num(hi)}", f"{num(hi)}x{num(hi)}",
                       f"{num(hi + 1)}x1", "100000x100000", "0x0", "-5x5", "1e300x1e300", "nanxnan", "infx1",
                       "8", "", "x", "1x"])
    if kind == "region":
        return list(REGIONS)
    if kind == "flag":
        if front == "cli":
            return [None, "1"]
        return [None, "1", "true", "0", "false", "", "2", "yes", "nan"]
    note(f"a parameter of a kind this test does not know ({kind}): {p['flag']}; generic values")
    return ["", "0", "-1", "1e300", "nan", "inf", "bogus", "0,0,100000,100000", "100000x100000"]


ENUMS = {}  # (route, query name) → the words /openapi.json lists for it (a route may take fewer than the registry's)


def valid(p, front, route=None):
    """The values among `texts(p, front)` the registry itself says are good: a number's bounds, a
    choice's or colour's words and aliases (any case), colours in the documented hex forms, a flag
    as documented, a length's documented forms in range, a size's minimum. None of them may be
    refused as a usage error (exit 2, 400): that would be a mistake of this test, or the front end
    disagreeing with the registry."""
    kind = p["kind"]
    if kind == "number":
        return {num(p["minimum"]), num(p["maximum"]), "-0" if p["minimum"] <= 0 <= p["maximum"] else None}
    if kind == "choice":
        words = p["words"] + list(p.get("aliases") or {})
        if front == "http" and (route, p["flag"]) in ENUMS:
            words = [w for w in words if w in ENUMS[(route, p["flag"])]]
        return set(words) | ({p["words"][0].upper()} if p["words"][0] in words else set())
    if kind == "color":
        return set(p.get("words", [])) | set(p.get("aliases") or {}) | {"#FFF", "#FF950080", "ff9500"}
    if kind == "flag":
        return {None} if front == "cli" else {None, "1", "true", "0", "false"}
    if kind == "length":
        fmax = (p.get("fractions") or {}).get("maximum", 1)
        good = {num(p.get("minimum", 0)), num(p.get("maximum", 1e6)), "40pt", "0%", num(fmax * 100) + "%"}
        return good | ({"none"} if p.get("allowsNone") else set())
    if kind == "size":
        lo = p.get("minimum", 1)
        return {f"{num(lo)}x{num(lo)}"}
    return set()


def heavy(p):
    """The values of `p` that make the most work: for pairing with a scale at its bounds."""
    kind = p["kind"]
    if kind == "number":
        return [num(p["maximum"])]
    if kind == "length":
        return [num(p.get("maximum", 1e6)), num((p.get("fractions") or {}).get("maximum", 1) * 100) + "%"]
    if kind == "size":
        return [f"{num(p.get('maximum', 10000))}x{num(p.get('maximum', 10000))}"]
    if kind == "region":
        return list(HEAVY_REGIONS)
    return []


def modest(p):
    """An ordinary value of `p`: its default, else its suggestion, else 1 within its range."""
    kind = p["kind"]
    if kind == "number":
        if isinstance(p.get("default"), (int, float)) and not isinstance(p.get("default"), bool):
            return num(p["default"])
        if "suggested" in p:
            return num(p["suggested"])
        return num(min(max(1, p["minimum"]), p["maximum"]))
    if kind in ("choice", "color"):
        return p.get("default") or p["words"][0]
    if kind == "flag":
        return None
    if kind == "length":
        return "none" if p.get("allowsNone") else num(p.get("minimum", 0))
    if kind == "size":
        return "8x8"
    if kind == "region":
        return "0,0,8,8"
    return ""


def param(op, name):
    return next(p for p in op["parameters"] if p["name"] == name)


def base(op, chosen):
    """The parameters an attempt on `chosen` also needs: the registry's suggestions (σ 8), less those
    an exclusive group rules out, and the partner (`goesWith`) of each chosen one at a modest value."""
    chosen = set(chosen)
    for name in list(chosen):
        partner = param(op, name).get("goesWith")
        if partner:
            chosen.add(partner)
    pairs = {p["name"]: num(p["suggested"]) for p in op["parameters"] if "suggested" in p}
    for name in chosen:
        p = param(op, name)
        if "goesWith" in p and p["goesWith"] not in pairs:
            pairs[p["goesWith"]] = modest(param(op, p["goesWith"]))
    for group in op.get("exclusive", []):
        if chosen & set(group):
            for other in set(group) - chosen:
                pairs.pop(other, None)
    return pairs


def attempts(op, front):
    """[([(parameter, text), …], good)] for the front end `front` ("cli" or "http"), parameters the
    front end does not take left out; `good` when the attempt is one value the registry calls valid
    (`valid`), with only the suggestions beside it."""
    takes = "commandLine" if front == "cli" else "http"
    params = [p for p in op["parameters"] if takes in p["frontEnds"]]
    names = {p["name"] for p in params}
    out = []

    def add(pairs, good=False):
        if all(p["name"] in names for p, _ in pairs):
            chosen = {p["name"] for p, _ in pairs}
            extra = [(param(op, n), v) for n, v in base(op, chosen).items() if n not in chosen and n in names]
            out.append((extra + pairs, good))

    for p in params:
        good = valid(p, front, op["flag"])
        for value in texts(p, front):
            add([(p, value)], value in good)
        add([(p, modest(p)), (p, modest(p))])  # given twice
    for group in op.get("exclusive", []):
        add([(param(op, n), modest(param(op, n))) for n in group])  # all of an exclusive group
    # A parameter tied to another (`goesWith`): its bounds against the other's.
    for p in params:
        partner = p.get("goesWith")
        if not partner or partner not in names:
            continue
        q = param(op, partner)
        mine = [num(p["minimum"]), num(p["maximum"])] if p["kind"] == "number" else texts(p, front)[:2]
        theirs = [num(q["minimum"]), num(q["maximum"])] if q["kind"] == "number" else sample_words(q.get("words", []))
        for a in mine:
            for b in theirs:
                add([(q, b), (p, a)])
    # A scale (a px/pt parameter) at its bounds with every geometry in points at its heaviest.
    for s in params:
        if s.get("unit") != "px/pt":
            continue
        for g in params:
            if g is s or not (g["kind"] in ("region", "size", "length") or (g["kind"] == "number" and g.get("unit") == "pt")):
                continue
            for scale in (num(s["minimum"]), num(s["maximum"])):
                for value in heavy(g):
                    pairs = [(g, value), (s, scale)]
                    partner = s.get("goesWith")
                    if partner and partner != g["name"] and partner in names:
                        pairs.insert(0, (param(op, partner), modest(param(op, partner))))
                    add(pairs)
    unique_out, seen = [], set()
    for pairs, good in out:
        key = tuple((p["name"], v) for p, v in pairs)
        if key not in seen:
            seen.add(key)
            unique_out.append((pairs, good))
    return unique_out


def cli_options(pairs):
    return [f"--{p['flag']}" if v is None else f"--{p['flag']}={v}" for p, v in pairs]


def query(pairs):
    parts = [p["flag"] if v is None else p["flag"] + "=" + urllib.parse.quote(v, safe=",") for p, v in pairs]
    return "&".join(parts)


# Processes -----------------------------------------------------------------------------------------

def status_field(pid, field):
    """A field of /proc/PID/status in bytes (VmRSS, VmHWM), 0 when the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run_cli(argv, cwd, bound=CLI_BOUND):
    """Runs one command line; (exit status or -signal, seconds, peak RSS in bytes, stderr text, what
    the watchdog did or None). The peak is this child's own ru_maxrss (wait4)."""
    with tempfile.TemporaryFile() as err:
        started = time.time()
        process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        killed, pause = None, 0.001
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            took = time.time() - started
            rss = status_field(process.pid, "VmRSS")
            if rss > HARD_CAP or took > bound:
                killed = f"killed by the test: RSS {rss / MB:.0f} MB" if rss > HARD_CAP else f"killed by the test after {took:.0f} s"
                os.kill(process.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(pause)
            pause = min(pause * 2, 0.02)
        process.returncode = os.waitstatus_to_exitcode(status)
        took = time.time() - started
        err.seek(0)
        text = err.read().decode(errors="replace")
    return process.returncode, took, usage.ru_maxrss * 1024, text, killed


class Watched:
    """`blurkit serve` for one batch, restarted when it dies, with a watchdog that kills it past the
    hard cap. `peak` is the highest VmHWM seen of every server of the batch."""

    def __init__(self, root, label):
        self.root, self.label = root, label
        self.server, self.peak, self.killed = None, 0, None
        self.over_reported = False
        self.statuses = Counter()
        self.slowest = (0.0, "")
        self.started = 0
        self.start()
        self.watching = True
        self.thread = threading.Thread(target=self.watch, daemon=True)
        self.thread.start()

    def start(self):
        self.server = Server(self.root, "--timeout", str(SERVE_TIMEOUT), "--memory-budget", str(SERVE_BUDGET))
        self.started += 1
        self.killed = None
        self.over_reported = False  # the first request that takes this server over the limit is named

    def watch(self):
        while self.watching:
            server = self.server
            if server.process.poll() is None:
                rss = status_field(server.process.pid, "VmRSS")
                if rss > HARD_CAP:
                    self.killed = rss
                    self.peak = max(self.peak, rss)
                    try:
                        os.kill(server.process.pid, signal.SIGKILL)
                    except OSError:
                        pass
            time.sleep(0.01)

    def log_tail(self):
        try:
            lines = [l for l in open(self.server.log_path, errors="replace").read().splitlines() if l.strip()]
        except OSError:
            return ""
        fatal = [l for l in lines if "Fatal error" in l or l.startswith("blurkit")]
        return (fatal or lines or [""])[-1][:160]

    def stop(self):
        self.watching = False
        self.thread.join()
        process = self.server.process
        if process.poll() is None:
            self.peak = max(self.peak, peak_rss(self.server))
            os.kill(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=SERVE_TIMEOUT + 5)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()
            check(process.returncode == 0, f"{self.label}: the server exits 0 after SIGTERM (exit {process.returncode})",
                  group=f"{self.label}: server exit")
        if not self.server.log.closed:
            self.server.log.close()
        os.remove(self.server.log_path)


def request(watched, method, target, body=None, probing=False, good=False, refusal=400):
    """One request against the batch's server, checked: answered within the bound, not 500, a 503
    that speaks of load or time, the server alive after it, its peak RSS within the limit. A probe's
    status is not checked (a 405 is its answer); with `good` (the registry's own values) a `refusal`
    (400, or 422 for a scene file) fails."""
    server = watched.server
    started = time.time()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=HTTP_BOUND)
    status, text = None, b""
    try:
        headers = {"Content-Type": "image/png"} if body is not None else {}
        connection.request(method, target, body=body, headers=headers)
        response = connection.getresponse()
        status, text = response.status, response.read()
    except (OSError, http.client.HTTPException) as error:
        text = repr(error).encode()
    finally:
        connection.close()
    took = time.time() - started
    what = f"{method} {target}" + (" (body: in8.png)" if body is not None else "")
    label = watched.label
    if VERBOSE:
        note(f"{status} {took:6.2f} s  {what}  {text[:100]!r}")
    watched.statuses[status] += 1
    if took > watched.slowest[0]:
        watched.slowest = (took, what)
    if took > SLOW:
        slow.append((took, what))
    if status is None:  # a crash in progress: give the process a moment to be seen dead
        try:
            server.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            pass
    alive = server.process.poll() is None
    server_peak = peak_rss(server) if alive else 0
    watched.peak = max(watched.peak, server_peak)
    if watched.killed:
        check(False, f"{label}: {what}: over the hard cap, the test killed the server at {watched.killed / MB:.0f} MB (limit {SERVE_LIMIT // MB} MB)",
              group=f"{label}: RSS over budget")
    elif not alive:
        check(False, f"{label}: {what}: the server died (exit {server.process.returncode}; {watched.log_tail()!r})",
              group=f"{label}: server crash")
    else:
        check(True, "alive")
    if watched.killed or not alive:
        server.log.close()
        os.remove(server.log_path)
        watched.start()
        return status, text
    if probing and status is not None:
        pass
    elif status is None:
        check(False, f"{label}: {what}: no answer within {HTTP_BOUND:.0f} s ({text[:80]!r})", group=f"{label}: no answer")
    elif status == 503:
        check(re.search(rb"load|time", text, re.I) is not None, f"{label}: {what}: 503 without load or time in its body ({text[:100]!r})",
              group=f"{label}: 503 not load/time")
    else:
        check(status < 500 and status not in (404, 405), f"{label}: {what}: {status} ({text[:100]!r})", group=f"{label}: status {status}")
    if good and status is not None:
        check(status != refusal, f"{label}: a value the registry calls valid refused: {what}: {status} ({text[:100]!r})",
              group=f"{label}: valid value refused")
    if server_peak > SERVE_LIMIT and not watched.over_reported:
        watched.over_reported = True
        check(False, f"{label}: {what}: server peak RSS {server_peak / MB:.0f} MB > {SERVE_LIMIT // MB} MB "
                     f"(--memory-budget {SERVE_BUDGET} + {PROCESS_ALLOWANCE} + {MARGIN})", group=f"{label}: RSS over budget")
    return status, text


# Files ---------------------------------------------------------------------------------------------

def fingerprint(paths):
    found = {}
    for path in paths:
        with open(path, "rb") as f:
            found[path] = (hashlib.sha256(f.read()).hexdigest(), os.stat(path).st_ino)
    return found


def check_inputs(before, when):
    after = {}
    for path in before:
        try:
            after.update(fingerprint([path]))
        except OSError as error:
            after[path] = (repr(error), None)
    changed = [os.path.basename(p) for p in before if after[p] != before[p]]
    check(not changed, f"inputs unchanged (SHA-256 and inode) after {when}: changed {changed}", group="inputs changed")
    before.update(after)  # report each change once


class Work:
    """The work folder: cli/ (the command line's inputs), root/ (the server's, with scenes/), out/."""

    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="blurkit-registry-")
        self.cli = os.path.join(self.folder, "cli")
        self.root = os.path.join(self.folder, "root")
        self.scenes = os.path.join(self.root, "scenes")
        self.out = os.path.join(self.folder, "out")
        for d in (self.cli, self.scenes, self.out):
            os.makedirs(d)
        small = Image.new("RGB", (8, 8), (200, 100, 50))
        wide = Image.linear_gradient("L").resize((64, 48)).convert("RGB")
        for folder in (self.cli, self.root):
            small.save(os.path.join(folder, "in8.png"))
            wide.save(os.path.join(folder, "in64.png"))
        self.in8 = open(os.path.join(self.root, "in8.png"), "rb").read()
        self.inputs = fingerprint([os.path.join(f, n) for f in (self.cli, self.root) for n in ("in8.png", "in64.png")])
        self.counter = 0
        self.counter_lock = threading.Lock()

    def output(self, suffix):
        with self.counter_lock:
            self.counter += 1
            return os.path.join(self.out, f"o{self.counter}{suffix}")

    def scene(self, name, document):
        path = os.path.join(self.scenes, name)
        with open(path, "w") as f:
            json.dump(document, f)
        self.inputs.update(fingerprint([path]))
        return "scenes/" + name

    def shown(self, argv):
        """A command line as it reproduces from the work folder."""
        text = shlex.join(["blurkit"] + argv[1:])
        return text.replace(self.folder + "/", "").replace(self.folder, ".")


def remove(path):
    if os.path.isdir(path):
        shutil.rmtree(path, ignore_errors=True)
    elif os.path.lexists(path):
        os.remove(path)


# The command line ----------------------------------------------------------------------------------

class Tally:
    """What a batch of command lines did: exit statuses, the peak RSS, the slowest."""

    def __init__(self, label):
        self.label, self.codes, self.peak, self.slowest, self.runs = label, Counter(), 0, (0.0, ""), 0
        self.lock = threading.Lock()

    def line(self):
        codes = ", ".join(f"{k}: {v}" for k, v in sorted(self.codes.items(), key=lambda kv: str(kv[0])))
        return (f"{self.label}: {self.runs} runs (exit {codes}); peak RSS {self.peak / MB:.0f} MB (limit {CLI_LIMIT // MB}); "
                f"slowest {self.slowest[0]:.2f} s: {self.slowest[1]}")


def cli_check(work, tally, argv, cwd, outputs, good=False, scene=None):
    """Runs `argv` and checks it (`good`: its values are the registry's own, so no usage error;
    `scene`: a scene file whose values are good, so no error naming that key path); its exit status
    and seconds."""
    code, took, peak, err, killed = run_cli(argv, cwd)
    for path in outputs:
        remove(path)
    shown = work.shown(argv)
    with tally.lock:
        tally.runs += 1
        tally.codes[code] += 1
        tally.peak = max(tally.peak, peak)
        if took > tally.slowest[0]:
            tally.slowest = (took, shown)
    if took > SLOW:
        slow.append((took, shown))
    label = tally.label
    last = (err.strip().splitlines() or [""])[0][:160]
    if VERBOSE:
        note(f"{code:>3} {took:6.2f} s {peak / MB:5.0f} MB  {shown}  {last[:100]}")
    if killed:
        check(False, f"{label}: {killed}: {shown}", group=f"{label}: {'RSS over budget' if 'RSS' in killed else 'hung'}")
        return code, took
    if good:
        check(code != 2, f"{label}: a value the registry calls valid refused as a usage error: {shown} ({last!r})",
              group=f"{label}: valid value refused")
    if scene:
        check(not (code == 1 and scene in err), f"{label}: a value the documentation calls valid refused: {shown} ({last!r})",
              group=f"{label}: valid value refused")
    if code < 0:
        check(False, f"{label}: killed by signal {signal.Signals(-code).name} after {took:.2f} s: {shown} ({last!r})",
              group=f"{label}: crash (signal)")
    else:
        check(code in (0, 1, 2), f"{label}: exit {code} after {took:.2f} s: {shown} ({last!r})", group=f"{label}: exit > 2")
    check(peak <= CLI_LIMIT, f"{label}: peak RSS {peak / MB:.0f} MB > {CLI_LIMIT // MB} MB (--memory-budget {CLI_BUDGET} + "
                             f"{PROCESS_ALLOWANCE} + {MARGIN}): {shown}", group=f"{label}: RSS over budget")
    return code, took


def cli_form(work, op):
    """How the command line takes `op`: ("inout", suffix) for `OP IN OUT`, ("folder", "") for
    `OP IN --out DIR`, or None; probed with the registry's suggestions."""
    formats = [p for p in op["parameters"] if p["kind"] == "choice" and "commandLine" in p["frontEnds"]
               and ("png" in p["words"] or "webp" in p["words"])]
    words = formats[0]["words"] if formats else ["png"]
    suffix = "." + ("png" if "png" in words else words[0])
    options = cli_options([(param(op, n), v) for n, v in base(op, []).items() if "commandLine" in param(op, n)["frontEnds"]])
    in8 = os.path.join(work.cli, "in8.png")
    for form, make in (("inout", lambda out: [in8, out]), ("folder", lambda out: [in8, "--out", out])):
        out = work.output(suffix if form == "inout" else "")
        code, _, _, _, _ = run_cli([BLURKIT, op["flag"], *make(out), "--memory-budget", str(CLI_BUDGET), *options], work.cli)
        remove(out)
        if code == 0:
            return form, suffix
    return None


def attack_cli(work, op, pool):
    form = cli_form(work, op)
    label = f"{op['flag']} (command line)"
    if form is None:
        check(False, f"{label}: neither `{op['flag']} IN OUT` nor `{op['flag']} IN --out DIR` runs with the registry's suggestions: not attacked",
              group=f"{label}: cannot drive")
        return
    form, suffix = form
    tally = Tally(label)
    plan = attempts(op, "cli")

    def run(attempt, image):
        pairs, good = attempt
        out = work.output(suffix if form == "inout" else "")
        where = [os.path.join(work.cli, image), out] if form == "inout" else [os.path.join(work.cli, image), "--out", out]
        argv = [BLURKIT, op["flag"], *where, "--memory-budget", str(CLI_BUDGET), *cli_options(pairs)]
        return cli_check(work, tally, argv, work.cli, [out], good)

    small = list(pool.map(lambda attempt: run(attempt, "in8.png"), plan))
    # A usage error (2) is the values' own, checked before any file is read, and seconds of work on
    # the 8×8 are the parameters' (an animation's length), not the input's: the 64×48 gets the rest.
    rest = [attempt for attempt, (code, took) in zip(plan, small) if code != 2 and took < 2]
    list(pool.map(lambda attempt: run(attempt, "in64.png"), rest))
    print("--   " + tally.line(), flush=True)
    check_inputs(work.inputs, label)


# HTTP ----------------------------------------------------------------------------------------------

def attack_http(work, op):
    label = f"{op['flag']} (HTTP)"
    watched = Watched(work.root, label)
    try:
        for pairs, good in attempts(op, "http"):
            q = query(pairs)
            request(watched, "GET", f"/{op['flag']}/in64.png" + ("?" + q if q else ""), good=good)
            request(watched, "POST", f"/{op['flag']}" + ("?" + q if q else ""), body=work.in8, good=good)
    finally:
        watched.stop()
    statuses = ", ".join(f"{k}: {v}" for k, v in sorted(watched.statuses.items(), key=lambda kv: str(kv[0])))
    print(f"--   {label}: {sum(watched.statuses.values())} requests ({statuses}); {watched.started} server(s); "
          f"peak RSS {watched.peak / MB:.0f} MB (limit {SERVE_LIMIT // MB}); slowest {watched.slowest[0]:.2f} s: {watched.slowest[1]}", flush=True)
    check_inputs(work.inputs, label)


# Probing the kinds ---------------------------------------------------------------------------------

def classify(work, operations):
    """(image operations, scene renderers, neither), by what their routes do with the registry's
    suggestions: a POSTed PNG rendered (200), or else a scene file under the root rendered (200)."""
    probe = work.scene("probe.json", {"width": 16, "height": 12, "duration": 0.1, "fps": 10, "layers": [
        {"frame": [0, 0, 16, 12], "content": {"image": "../in8.png", "mode": "fill"}}]})
    images, scenes, neither = [], [], []
    watched = Watched(work.root, "probe")
    try:
        for op in operations:
            pairs = [(param(op, n), v) for n, v in base(op, []).items() if "http" in param(op, n)["frontEnds"]]
            q = query(pairs)
            status, _ = request(watched, "POST", f"/{op['flag']}" + ("?" + q if q else ""), body=work.in8, probing=True)
            if status == 200:
                images.append(op)
                continue
            status, _ = request(watched, "GET", f"/{op['flag']}/{probe}" + ("?" + q if q else ""), probing=True)
            (scenes if status == 200 else neither).append(op)
        status, body = request(watched, "GET", "/openapi.json", probing=True)
        if status == 200:
            for path, item in json.loads(body).get("paths", {}).items():
                for operation in item.values():
                    for q in operation.get("parameters", []) if isinstance(operation, dict) else []:
                        if "enum" in q.get("schema", {}):
                            ENUMS[(path.strip("/").split("/")[0], q["name"])] = q["schema"]["enum"]
        else:
            check(False, f"/openapi.json: {status}", group="openapi")
    finally:
        watched.stop()
    return images, scenes, neither


# Scenes --------------------------------------------------------------------------------------------

def scene_values(p):
    """JSON values for a scene key of parameter `p`'s kind."""
    kind = p["kind"]
    if kind == "number":
        lo, hi = p["minimum"], p["maximum"]
        return unique([lo, hi, lo - step(p, False), hi + step(p, True), 1e9, 1e300, -1e300, -1, None, "nan", "", True, [],
                       {"light": hi, "dark": lo}, {"light": 1e300, "dark": 0}])
    if kind == "choice":
        words = p["words"]
        return unique(sample_words(words) + list(p.get("aliases") or {})[:1] + [words[0].upper(), "bogus", "", None, 5])
    if kind == "color":
        words = p.get("words", ["none"])
        return unique([words[0], words[-1], "#FFF", "#FF950080", "#12", "red", "", None, {"red": 1, "green": 0.5, "blue": 0},
                       {"red": 1e300, "green": -1, "blue": 2}, {"white": 0.5, "alpha": 2}, "#" + "F" * 1000])
    if kind == "length":
        hi = p.get("maximum", 1e6)
        fmax = (p.get("fractions") or {}).get("maximum", 1)
        return unique([{"relative": 0}, {"relative": fmax}, {"relative": fmax + 0.01}, {"relative": 1e300}, {"relative": -1},
                       {"absolute": hi}, {"absolute": hi + 1}, {"absolute": 1e300}, {"absolute": -1}, "none", None,
                       "1e9%", num(fmax * 100) + "%", "-5pt", "nan", {"relative": 0.5, "absolute": 5}, {}])
    if kind == "flag":
        return [True, False, None, 1, "yes"]
    if kind == "region":
        return [[0, 0, 100000, 100000], [-500000, -500000, 1000000, 1000000], [0, 0, 10000, 10000], "0,0,100000,100000",
                [1e300, 0, 1, 1], [0, 0], "nan"]
    if kind == "size":
        return [[100000, 100000], [10000, 10000], "10000x10000", [0, 0], [1e300, 1e300], "nan"]
    if kind == "areas":
        good = p["suggested"]
        return [good, [good, "rect:-1000000,-1000000,1000000,1000000:2000:1000000"], "ellipse:0,0,1000000,1000000:2000:1000000",
                ";".join(["1,1,1,1:2000:1000000"] * p["most"]), ";".join(["1,1,1,1"] * (p["most"] + 1)), "circle:1,1,1,1",
                "1,1,0,1", "", [], [5], None, 5, {}]
    return [None, 0, -1, 1e300, "bogus", [], {}]


def scene_valid(p, value):
    """Whether the scene format's documentation says `value` is good for `p` (docs/scene-format.md,
    Backdrops): then the file must not be refused as unusable (422, or the command line naming the key)."""
    kind = p["kind"]
    if kind == "number":
        lo, hi = p["minimum"], p["maximum"]
        if value is None:
            return lo <= 0 <= hi
        if isinstance(value, dict):
            return "defaults" in p and value == {"light": hi, "dark": lo}
        return not isinstance(value, bool) and value in (lo, hi)
    if kind == "choice":
        words = p["words"] + list(p.get("aliases") or {})
        return isinstance(value, str) and (value in words or value == words[0].upper())
    if kind == "color":
        return value is None or (isinstance(value, (str, dict)) and value in p.get("words", []) + ["#FFF", "#FF950080", {"red": 1, "green": 0.5, "blue": 0}])
    if kind == "length":
        fmax = (p.get("fractions") or {}).get("maximum", 1)
        good = [{"relative": 0}, {"relative": fmax}, {"absolute": p.get("maximum", 1e6)}, num(fmax * 100) + "%"]
        return value in good or (bool(p.get("allowsNone")) and (value is None or value == "none"))
    if kind == "flag":
        return value is True or value is False or value is None
    if kind == "areas":
        good = p["suggested"]
        return value == good or value == [good, "rect:-1000000,-1000000,1000000,1000000:2000:1000000"]
    return False


def required_keys(op):
    """The scene keys an effect cannot go without (no default), at the values the registry suggests."""
    return {p["canonical"]: p["suggested"] for p in scene_keys(op) if "default" not in p and "suggested" in p}


def scene_keys(op):
    return [p for p in op["parameters"] if "scene" in p["frontEnds"]]


def still(effect, frame=(0, 0, 64, 48), scale=1, size=(64, 48)):
    return {"width": size[0], "height": size[1], "scale": scale, "layers": [
        {"frame": [0, 0, size[0], size[1]], "content": {"image": "../in64.png", "mode": "fill"}},
        {"name": "fx", "frame": list(frame), "backdrop": effect}]}


def animation(op, kind, scale, only=None):
    """A scene of 32×24 pt over 0.5 s at 10 fps: `numbers` animates every number key of the backdrop
    (or `only` that one) from its minimum to its maximum (and colours to a translucent red); `frame`
    animates the backdrop's frame far outside."""
    keys = [p for p in scene_keys(op) if only is None or p is only]
    numbers = [p for p in keys if p["kind"] == "number"]
    start = {p["canonical"]: p["minimum"] for p in numbers}
    document = still({op["name"]: {**required_keys(op), **(start if kind == "numbers" else {})}}, frame=(0, 0, 32, 24), scale=scale,
                     size=(32, 24))
    document.update({"duration": 0.5, "fps": 10})
    if kind == "numbers":
        target = {p["canonical"]: p["maximum"] for p in numbers}
        target.update({p["canonical"]: "#FF000080" for p in keys if p["kind"] == "color"})
    else:
        target = {"frame": [-500000, -500000, 1000000, 1000000]}
    document["animations"] = [{"at": 0, "duration": 0.5, "curve": "linear", "layer": "fx", "set": target}]
    return document


def time_param(renderer):
    """The renderer's scene time (a number of seconds that may be negative): given alone, a still."""
    found = [p for p in renderer["parameters"] if p["kind"] == "number" and p.get("unit") == "s" and p.get("minimum", 0) < 0]
    return found[0] if found else None


SCENE_FRAMES = [(0, 0, 64, 48), (0, 0, 10000, 10000), (0, 0, 100000, 100000), (-500000, -500000, 1000000, 1000000),
                (1000000, 1000000, 1000000, 1000000)]


def attack_scenes(work, op, renderer, pool):
    """(c) and (d) for one effect with scene keys, through `renderer` (a scene-rendering operation)."""
    name = op["name"]
    stills = []  # (path under the root, whose values the documentation calls good)
    for p in scene_keys(op):
        for i, value in enumerate(scene_values(p)):
            backdrop = {**required_keys(op), p["canonical"]: value}
            stills.append((work.scene(f"{name}-{p['canonical']}-{i}.json", still({name: backdrop})), scene_valid(p, value)))
    for f, frame in enumerate(SCENE_FRAMES):
        for scale in (1, 16, 0.01):
            stills.append((work.scene(f"{name}-frame{f}-scale{num(scale)}.json", still({name: required_keys(op)}, frame=frame, scale=scale)),
                           False))
    for size, scale in (((100000, 100000), 1), ((100000, 100000), 0.01)):
        stills.append((work.scene(f"{name}-canvas{size[0]}-scale{num(scale)}.json",
                                  still({name: required_keys(op)}, frame=(0, 0) + size, scale=scale, size=size)), False))
    movies = [work.scene(f"{name}-anim-{kind}-scale{num(scale)}.json", animation(op, kind, scale))
              for kind in ("numbers", "frame") for scale in (1, 16, 0.01)]
    # Each number alone at the largest scale: frames render in parallel, each at its own value.
    movies += [work.scene(f"{name}-anim-{p['canonical']}-scale16.json", animation(op, "numbers", 16, only=p))
               for p in scene_keys(op) if p["kind"] == "number"]

    flag = renderer["flag"]
    at = time_param(renderer)
    still_options = [f"--{at['flag']}=0"] if at else []
    still_query = f"{at['flag']}=0&" if at else ""
    formats = [p for p in renderer["parameters"] if p["kind"] == "choice" and "apng" in p["words"] + list(p.get("aliases") or {})]

    tally = Tally(f"{name} as a backdrop (command line: {flag})")
    runs = [([BLURKIT, flag, os.path.join(work.root, s), work.output(".png"), "--memory-budget", str(CLI_BUDGET), *still_options], good)
            for s, good in stills]
    runs += [([BLURKIT, flag, os.path.join(work.root, m), work.output("." + kind), "--memory-budget", str(CLI_BUDGET)], False)
             for m in movies for kind in ("apng", "webp")]
    list(pool.map(lambda r: cli_check(work, tally, r[0], work.folder, [r[0][3]], scene=f"backdrop.{name}" if r[1] else None), runs))
    print("--   " + tally.line(), flush=True)

    watched = Watched(work.root, f"{name} as a backdrop (HTTP: /{flag})")
    try:
        png = "format=png" if formats else ""
        for s, good in stills:
            request(watched, "GET", f"/{flag}/{s}?{still_query}{png}".rstrip("?&"), good=good, refusal=422)
        for m in movies:
            for kind in ("apng", "webp"):
                request(watched, "GET", f"/{flag}/{m}" + (f"?{formats[0]['flag']}={kind}" if formats else ""))
    finally:
        watched.stop()
    print(f"--   {watched.label}: {sum(watched.statuses.values())} requests ({dict(watched.statuses)}); peak RSS "
          f"{watched.peak / MB:.0f} MB; slowest {watched.slowest[0]:.2f} s: {watched.slowest[1]}", flush=True)
    check_inputs(work.inputs, f"{name} as a backdrop")


def attack_renderer(work, renderer, effect, pool):
    """A scene renderer's own parameters, on a one-second animation of `effect` (the first effect with
    scene keys) at one frame a second, its first number at its maximum in that frame. What the
    animation refuses as a usage error is asked again as a still (`time` 0 beside it): the formats a
    still takes are not an animation's, so a value the registry calls valid must be taken by one."""
    keys = scene_keys(effect)
    numbers = [p for p in keys if p["kind"] == "number"]
    first = {numbers[0]["canonical"]: numbers[0]["maximum"]} if numbers else {}
    # 100 pt square: at the least scale (0.01) a pixel, which a smaller scene would not have (its
    # refusal, 400 naming the scale, is what a 32×24 scene at 0.01 gets).
    document = still({effect["name"]: first}, frame=(0, 0, 100, 100), size=(100, 100))
    document.update({"duration": 1, "fps": 1})  # the longest --duration is then 600 frames of 100×100
    if numbers:
        document["animations"] = [{"at": 0, "duration": 1, "layer": "fx", "set": {numbers[0]["canonical"]: numbers[0]["minimum"]}}]
    scene = work.scene("renderer-base.json", document)
    flag, at = renderer["flag"], time_param(renderer)

    def as_still(pairs):
        return pairs if at is None or any(p is at for p, _ in pairs) else [(at, "0")] + pairs

    tally = Tally(f"{flag}'s own parameters (command line)")

    def run(pairs, suffix):
        out = work.output(suffix)
        argv = [BLURKIT, flag, os.path.join(work.root, scene), out, "--memory-budget", str(CLI_BUDGET), *cli_options(pairs)]
        return cli_check(work, tally, argv, work.folder, [out])[0]

    plan = attempts(renderer, "cli")
    moving = list(pool.map(lambda a: run(a[0], ".webp"), plan))
    again = [a for a, code in zip(plan, moving) if code == 2]
    stills = list(pool.map(lambda a: run(as_still(a[0]), ".png"), again))
    for (pairs, good), code in zip(again, stills):
        if good:
            check(code != 2, f"{tally.label}: a value the registry calls valid refused as a usage error as an animation and as a still: "
                             f"{' '.join(cli_options(pairs))}", group=f"{tally.label}: valid value refused")
    print("--   " + tally.line(), flush=True)

    watched = Watched(work.root, f"{flag}'s own parameters (HTTP)")
    try:
        for pairs, good in attempts(renderer, "http"):
            q = query(pairs)
            status, _ = request(watched, "GET", f"/{flag}/{scene}" + ("?" + q if q else ""))
            if status == 400:
                status, _ = request(watched, "GET", f"/{flag}/{scene}?" + query(as_still(pairs)))
                if good:
                    check(status != 400, f"{watched.label}: a value the registry calls valid refused as an animation and as a still: "
                                         f"GET /{flag}/{scene}?{q}", group=f"{watched.label}: valid value refused")
    finally:
        watched.stop()
    print(f"--   {watched.label}: {sum(watched.statuses.values())} requests ({dict(watched.statuses)}); peak RSS "
          f"{watched.peak / MB:.0f} MB; slowest {watched.slowest[0]:.2f} s: {watched.slowest[1]}", flush=True)
    check_inputs(work.inputs, f"{flag}'s own parameters")


# The run -------------------------------------------------------------------------------------------

def main():
    only = set(sys.argv[1:])
    began = time.time()
    operations = registry()
    work = Work()
    print(f"-- {len(operations)} operations in the registry: {', '.join(op['flag'] for op in operations)}; work folder {work.folder}", flush=True)
    images, renderers, neither = classify(work, operations)
    print(f"-- image operations: {', '.join(op['flag'] for op in images)}; scene renderers: "
          f"{', '.join(op['flag'] for op in renderers) or 'none'}", flush=True)
    for op in neither:
        check(False, f"{op['flag']}: neither renders a POSTed PNG nor a scene file with the registry's suggestions: not attacked",
              group=f"{op['flag']}: cannot drive")
    effects = [op for op in images if scene_keys(op)]
    def guarded(what, attack, *args):
        """Runs one batch; a batch that breaks is a failure, and the others still run."""
        try:
            attack(*args)
        except Exception as error:
            check(False, f"{what} raised {error!r}", group=f"{what}: the test broke")

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for op in images:
            if only and op["flag"] not in only and op["name"] not in only:
                continue
            print(f"-- {op['flag']}", flush=True)
            guarded(f"{op['flag']} (command line)", attack_cli, work, op, pool)
            guarded(f"{op['flag']} (HTTP)", attack_http, work, op)
        if not renderers:
            check(False, "no scene renderer found: scenes and animations not attacked", group="no scene renderer")
        for renderer in renderers[:1]:
            for op in effects:
                if only and op["flag"] not in only and op["name"] not in only:
                    continue
                print(f"-- {op['name']} as a scene backdrop, still and animated", flush=True)
                guarded(f"{op['name']} as a backdrop", attack_scenes, work, op, renderer, pool)
        for renderer in renderers:
            if only and renderer["flag"] not in only:
                continue
            if effects:
                print(f"-- {renderer['flag']}'s own parameters", flush=True)
                guarded(f"{renderer['flag']}'s own parameters", attack_renderer, work, renderer, effects[0], pool)
    check_inputs(work.inputs, "the whole run")
    if failures:
        print(f"-- work folder kept for the commands above: {work.folder}")
    else:
        shutil.rmtree(work.folder, ignore_errors=True)

    if slow:
        print(f"-- slower than {SLOW:.0f} s (not failures):")
        for took, what in sorted(slow, reverse=True)[:15]:
            note(f"{took:.1f} s  {what}")
    if failures:
        print("-- failures by kind (group: count, first):")
        groups = defaultdict(list)
        for group, message in failures:
            groups[group].append(message)
        for group, messages in groups.items():
            note(f"{group}: {len(messages)}, e.g. {messages[0][:300]}")
    print(f"({time.time() - began:.0f} s)")
    print(f"{len(passed)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
