def run():
    n = int(input())

    buf = []  # 答え
    for _ in range(n):
        buf.append(int(input()))
    b = sorted(buf)

    for x in buf:
        print(b[-1] if x != b[-1] else b[-2])


run()
