import os, pty, sys
"""onterm.py TERM CMD...: run CMD with standard error on a pseudo-terminal
(TERM set to TERM, or unset when TERM is empty) and standard output to
/dev/null; write what CMD wrote on the terminal to standard output."""
term = sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    env = dict(os.environ)
    if term: env["TERM"] = term
    else: env.pop("TERM", None)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.execve(sys.argv[2], sys.argv[2:], env)
out = b""
while True:
    try:
        b = os.read(fd, 65536)
    except OSError:
        break
    if not b: break
    out += b
_, st = os.waitpid(pid, 0)
sys.stdout.buffer.write(out)
sys.exit(os.waitstatus_to_exitcode(st))
