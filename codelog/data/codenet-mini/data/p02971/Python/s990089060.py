import sys
acc = int(sys.stdin.readline())
a = [int(sys.stdin.readline()) for _ in range(acc)]
for i in range(acc):
    print (min(a[:i] + a[i + 1:]))
