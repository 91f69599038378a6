# C - Exception Handling
n, a=map(int, input().split())
mx=max(a)
if a.count(mx) > 1:
    for _ in range(n):
        print(mx)
else:
    second=sorted(a)[-2]
    for x in a:
        # output
        print(second if x == mx else mx)