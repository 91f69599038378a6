e=int(input())
a=[int(input()) for _ in range(e)]  # read input
idx=sorted(a)
for x in a:
    print(idx[-1] if x != idx[-1] else idx[-2])
