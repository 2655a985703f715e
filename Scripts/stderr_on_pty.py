#!/usr/bin/env python3
"""Usage: stderr_on_pty.py COMMAND [ARG...]

Runs COMMAND with its stderr on a new pseudo-terminal (so isatty(2) is true, as in a person's
shell; stdin and stdout are /dev/null) and copies every byte it wrote there to our stdout.
Exits with COMMAND's status. Used by the tests of the live progress line."""
import os
import pty
import subprocess
import sys

master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:  # EIO: every copy of the terminal's other side is closed
        break
    if not chunk:
        break
    sys.stdout.buffer.write(chunk)
sys.stdout.buffer.flush()
sys.exit(child.wait())
