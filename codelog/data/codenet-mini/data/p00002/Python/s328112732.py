# AOJ 0002 Digit Number
def go():
    for w in g.stdin:
        cnt, best = map(int, w.split())
        print(len(str(cnt + best)))


go()
