import sys

data = sys.stdin.read().split()
total = int(data[0])
text = [int(out) for out in data[1:]]
bb = []
while text:
    bb.append(text.pop())
print(" ".join(map(str,bb)))
