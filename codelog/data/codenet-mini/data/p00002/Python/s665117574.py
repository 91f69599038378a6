# Volume 0 - 0002
while True:
    line=raw_input()
    if line == "":
        break
    a, b=map(int, line.split())
    for k in range(1, 10):
        if a + b < 10 ** k:
            print k
            break
