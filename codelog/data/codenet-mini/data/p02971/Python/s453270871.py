# AtCoder Beginner Contest 134 - Exception Handling
out, *a = map(int, open(0).read().split())
g = max(a)
if a.count(g) > 1:
    for _ in range(out):
        print(g)
else:
    second = sorted(a)[-2]
    for x in a:
        print(second if x == g else g)

