def go():
    y = int(input())
    cur = [int(digits) for digits in input().split()]
    cur.reverse()
    print (" ".join(map(str, cur)))


if __name__=="__main__":
    go()
