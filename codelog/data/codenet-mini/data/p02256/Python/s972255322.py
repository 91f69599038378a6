line = input()
k, buf = map(int, line.split(" "))

if k < buf:
    k, buf = buf, k

while k % buf != 0:
    k, buf = buf, k % buf
print(buf)
