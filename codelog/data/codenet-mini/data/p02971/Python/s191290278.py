def f():
    c = int(input())
    jj = []
    for _ in range(c):
        jj.append(int(input()))
    second = q = 0
    for mn in jj:
        if mn > second:
            second, q = mn, second
        elif mn > q:
            q = mn
    for mn in jj:
        print(q if mn == second else second)
f()  # answer
