# -*- coding: utf-8 -*-
def main():
    S = str(input())
    ans = []
    # output
    for C in S:
        if C=="B":  # debug
            if ans:
                ans.pop()
        else:
            ans.append(C)
    print(ans)


if __name__=="__main__":
    main()
