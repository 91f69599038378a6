# coding: utf-8
# Volume 0 - 0002
while True:
    try:
        line = input()
    except EOFError:
        break
    a, b = [int(x) for x in line.split()]
    print(len(list(str(a + b))))
