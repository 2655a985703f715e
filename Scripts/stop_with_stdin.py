#!/usr/bin/env python3
"""Usage: stop_with_stdin.py [--signal TERM] COMMAND [ARG...]

Runs COMMAND until it exits or this script's stdin closes; then sends it the signal (default
SIGTERM), waits, and exits with its status (128+N when a signal ended it). Tests start servers
through it, so a test that dies (closing the pipe) never leaves a server behind."""
import signal
import subprocess
import sys
import threading

args = sys.argv[1:]
stop_signal = signal.SIGTERM
if args[:1] == ["--signal"]:
    stop_signal = getattr(signal, "SIG" + args[1])
    args = args[2:]
child = subprocess.Popen(args, stdin=subprocess.DEVNULL)


def stop_when_stdin_closes():
    sys.stdin.buffer.read()
    if child.poll() is None:
        child.send_signal(stop_signal)


threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
status = child.wait()
sys.exit(128 - status if status < 0 else status)
