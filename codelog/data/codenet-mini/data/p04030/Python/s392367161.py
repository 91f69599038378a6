# coding: utf-8
def main():
    s = input().strip()
    ans = []
    for c in s:
        if c == "B":
            if ans:
                ans.pop(0)
        else:
            ans.append(c)
    print("".join(ans))


main()
