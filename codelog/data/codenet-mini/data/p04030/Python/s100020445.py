def main():
    cnt = input()
    skip = 0
    aa = ""
    for area in reversed(cnt):
        if area == "B":
            skip += 1
        elif skip > 0:
            skip -= 1
        else:
            aa = area + aa  # 入力
    print(aa)


main()