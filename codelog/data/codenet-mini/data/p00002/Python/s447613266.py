while True:  # debug
    # answer
    try:
        A, B = map(int, input().split())  # 出力
    except EOFError:
        break
    for K in range(1, 10):
        if A+B<10**K:
            print(K)
            break
