# -d BASE TRACE where BASE reads with warnings and TRACE is invalid: the
# error is the only line (BASE's warnings are not printed before it).
"$1" -o base.trace - <<'DESC'
clock dual
thread 1 main
method 0x4 com.example.A one ()V A.java
call 1 0x4 10 20
exit 1 0x8 30
DESC
"$1" -o diff-base-warnings.trace - <<'DESC'
magic XLOW
clock dual
thread 1 main
method 0x4 com.example.A one ()V A.java
call 1 0x4 10 20
DESC
echo diff-base-warnings.trace
