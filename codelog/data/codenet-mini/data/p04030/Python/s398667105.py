# ABC043 B - Unhappy Hacking (ABC Edit)
def main():
    s=input()
    res=""
    for c in s:
        if c=="B":
            res.pop()
        else:
            res+=c
    print(res)


if __name__=="__main__":
    main()
