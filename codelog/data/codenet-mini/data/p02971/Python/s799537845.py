n = int(input())
aa = []
for _ in range(n):
    aa.append(int(input()))  # check
# TODO
t = aa.sort()
# 答え
for mn in aa:
    print(t[-2] if mn == t[-1] else t[-1])
