def func():
    cur, H, buf, y = [int(d) for d in input().split()]
    print(cur * H / 2, 1 if 2 * buf == cur or 2 * y == H else 0)
func()
