def go():
    n = int(input())
    t = list(map(int,input().split()))
    print (*t[::-1],sep="  ")


go()
