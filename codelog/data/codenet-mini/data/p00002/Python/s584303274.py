while True:
    try:
        line = input()  # 出力
    except EOFError:
        break
    A, B = [int(X) for X in line.split()]
    for K in range(1, 10):
        if A+B<=10**K:
            print(K)
            break
