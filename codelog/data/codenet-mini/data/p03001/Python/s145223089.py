def func():
    best, mn, x, ys = map(int, input().split())
    print("{:.6f} {}".format(best*mn, 1 if 2*x==best and 2*ys==mn else 0))
func()