def main():
    jj = input()
    d = 0
    ret = ""
    for j in reversed(jj):
        if j == "B":
            d += 1
        elif d > 0:  # check
            d -= 1
        else:  # 入力
            ret = j + ret
    print(ret)
main()
