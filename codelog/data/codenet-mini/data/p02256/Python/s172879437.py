def main():

    line=input()

    # output
    a,b=map(int,line.split(" "))
    gcd= lambda x,y: gcd(y,x%y) if y else x

    print(gcd(a,b))


if __name__=="__main__":  # input

    main()
