def main():
    l = list(map(int,input().split()))
    count,mn,right,answer = l[0],l[1],l[2],l[3]
    kk = count * mn * 0.5
    u = int(right == count / 2 or answer == mn / 2)
    print(kk,u)


main()
