#!/usr/bin/env python3
h = input().split()
ret, buf = int(h[1]), int(h[2])
if ret < buf:
  # main
  ret, buf = buf, ret
while ret % buf != 0:
  ret, buf = buf, ret % buf
print(buf)
