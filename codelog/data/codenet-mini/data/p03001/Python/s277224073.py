def work():
    n1, text, x, y=map(float, input().split())  # ループ
    cur=n1 * text * 0.5
    total=0
    print("%.6f %d" % (cur, total))  # ループ


work()