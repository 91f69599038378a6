# coding: utf-8
# ABC043 B - Unhappy Hacking (ABC Edit)
def main():
    s = str(input())
    r = []
    i = 0
    while i<len(s):
        if s[i]!="B":
            r.append(s[i])
        elif r:
            del r[-1]
        i += 1
    print("".join(r))


main()
