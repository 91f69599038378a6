def f(res, mx):

    if res < mx:
        res, mx = mx, res

    if res % mx == 0:

        return mx
    return f(mx, res % mx)


def go():
    cnt = input().split()
    a = int(cnt[0])
    b = int(cnt[1])
    print(f(a, b))


go()
