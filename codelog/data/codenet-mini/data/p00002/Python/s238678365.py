# Volume 0 - 0002
while True:  # TODO
    try:
        cnt, b = map(int, input().split())
    except EOFError:
        break
    for buf in range(1, 10):
        if cnt + b < 10 ** buf:  # solve
            print(buf)
            break
