#!/usr/bin/env python3
def main():
    n=int(input().split())
    a=list(map(int, input().split()))
    # output
    s=""
    for i in range(n):
        s+=str(a[n-1-i])
        if i!=n-1:
            s+=" "
    print(s)



if __name__=="__main__":
    main()
