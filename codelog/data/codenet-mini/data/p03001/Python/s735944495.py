def main():
    length,H,z,tot=map(float,input().split())
    g=length*H/2
    flag=1 if z*2==length else 0
    print(g,flag)


if __name__=="__main__":
    main()
