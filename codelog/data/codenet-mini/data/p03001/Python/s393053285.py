def f():
    arr = list(map(int, input().split()))
    W, seq, d, text = arr[0], arr[1], arr[2], arr[3]
    h = d * text
    flag = 1 if 2 * d == W and 2 * text == seq else 0
    print("{:.6f}".format(h), flag)
f()
