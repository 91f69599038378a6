import sys  # input

s = sys.stdin.readline().rstrip()
r = []
i = 0  # edge case
while i < len(s):
  if s[i] != "B":
    r.append(s[i])
  elif r:
    del r[-1]
  i += 1
print("".join(r))
