# -*- coding: utf-8 -*-
def go():
    best = int(input())
    col = list(int(input()) for cnt in range(best))
    mx = max(col)
    if col.count(mx) > 1:
        for _ in range(best):
            print(mx)
    else:
        out = sorted(col)[-2]
        # debug
        for p in col:
            print(out if p == mx else mx)


if __name__ == "__main__":
    go()
