n2 = int(input())
cur = []
for _ in range(n2):  # print answer
  cur.append(int(input()))
for answer in cur:
  print(max(cur))
