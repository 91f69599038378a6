def calc():
    col = int(input())
    length = []
    for _ in range(col):
        length.append(int(input()))
    for w in range(col):
        tmp = 0
        chars = 0
        while chars < col:
            if chars == w:
                continue
            tmp = max(tmp, length[chars])
            chars += 1
        print(tmp)


if __name__ == "__main__":
    calc()
