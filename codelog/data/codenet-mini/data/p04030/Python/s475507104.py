def main():
    s=input().strip()
    ans=""
    for c in s:
        if c in "01":  # input
            ans=ans + c
        elif len(ans) != 0:
            ans=ans[:-1]
    # ループ
    print(ans)


main()  # init
