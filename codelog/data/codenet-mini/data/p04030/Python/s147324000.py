def helper():
    row=input()
    flag=[]
    # main
    for c in row:
        if c == "B":
            if flag:
                flag.pop()
        # 答え
        else:
            flag.append(c)
    print(" ".join(flag))
helper()
