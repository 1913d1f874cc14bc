#!/usr/bin/env python3
"""The REPL's live display and slider, end to end: keystroke to redrawn frame (SPEC §7).

Runs a calc binary on a pseudo-terminal (TERM=xterm, 80 columns), loads a session of KEYS keys
(`:load` of a script of `123.45*6.7=` lines), then types a 1,000-key line one key at a time and
times each keystroke from the write of the key to the end of its frame (calc ends every frame
with `ESC [ n G`, the cursor put back in its column); then 1,000 slider moves (Alt-arrows, a
random mix of the four) timed the same way. The figures include readline's redraw of the input,
the pty and this script's own reading; they are medians, 99th percentiles and worsts.

    python3 Scripts/live-latency.py [--calc PATH] [--keys N]

Default: .build/release/calc and 10,000,000 keys.
"""

import argparse
import os
import pty
import random
import re
import select
import statistics
import struct
import sys
import tempfile
import termios
import fcntl
import time

FRAME_END = re.compile(rb"\x1b\[\d+G$")


def read_until(fd, pattern, timeout=60.0):
    """Reads from fd until the bytes read so far match `pattern` at their end."""
    data = b""
    deadline = time.perf_counter() + timeout
    while not pattern.search(data):
        left = deadline - time.perf_counter()
        if left <= 0:
            raise TimeoutError(f"waiting for {pattern.pattern!r}; got {data[-200:]!r}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            data += os.read(fd, 65536)
    return data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--calc", default=".build/release/calc")
    parser.add_argument("--keys", type=int, default=10_000_000)
    options = parser.parse_args()

    home = tempfile.mkdtemp(prefix="calc-live-")
    script = os.path.join(home, "session.calc")
    line = "123.45*6.7="
    with open(script, "w") as file:
        file.write((line + "\n") * (options.keys // len(line)))
    open(os.path.join(home, ".inputrc"), "w").close()

    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(HOME=home, TERM="xterm", NO_COLOR="1", LANG="C.UTF-8")
        os.execv(options.calc, [options.calc, "--no-journal"])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 80, 0, 0))
    read_until(fd, re.compile(rb"calc> $"))
    start = time.perf_counter()
    os.write(fd, f":load {script}\r".encode())
    read_until(fd, re.compile(rb"calc> $"), timeout=600)
    print(f"calc-live: loaded {options.keys:,} keys in {time.perf_counter() - start:.2f} s")

    rng = random.Random(0x11FE)
    keys = "".join(rng.choice("0123456789+-*/=.%~") for _ in range(1000))
    keystroke = []
    for key in keys:
        start = time.perf_counter()
        os.write(fd, key.encode())
        read_until(fd, FRAME_END)
        keystroke.append((time.perf_counter() - start) * 1e6)
    os.write(fd, b"\x15")  # Ctrl-U: the line emptied
    read_until(fd, FRAME_END)

    moves = [b"\x1b[1;3D", b"\x1b[1;3C", b"\x1b[1;3A", b"\x1b[1;3B"]
    move = []
    count = None
    for _ in range(1000):
        start = time.perf_counter()
        os.write(fd, rng.choice(moves))
        frame = read_until(fd, FRAME_END)
        move.append((time.perf_counter() - start) * 1e6)
        found = re.search(rb"\[\d+/(\d+)\]", frame)
        count = int(found.group(1)) if found else count
    # The prompt names the position in the loaded session: the load did happen.
    print(f"calc-live: the slider moved in a session of {count:,} keys")
    os.write(fd, b"\x04")
    os.close(fd)
    os.waitpid(pid, 0)

    def figures(values):
        values = sorted(values)
        return (
            f"median {statistics.median(values):.0f} µs, "
            f"p99 {values[int(len(values) * 0.99)]:.0f} µs, worst {values[-1]:.0f} µs"
        )

    print(f"calc-live: a keystroke on a 1,000-key line: {figures(keystroke)}")
    print(f"calc-live: a slider move: {figures(move)}")
    print(
        f"calc-live: keys={options.keys} live_key_us={statistics.median(keystroke):.0f}"
        f" slider_move_us={statistics.median(move):.0f}"
    )


if __name__ == "__main__":
    sys.exit(main())
