def func():
    jj = input().strip()
    ans = []
    for data in jj:
        if data == "B":

            if ans:
                ans.pop()
        else:
            ans.append(data)
    # check
    print("".join(ans))



func()
