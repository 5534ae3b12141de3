# A legacy NAME.key given without its NAME.data.
"$1" -o pair - <<'DESC'
layout split
clock wall
thread 1 main
method 0x4 com.example.A one ()V A.java
call 1 0x4 10 20
DESC
rm pair.data
echo pair.key
